import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The stepping machines a chart's stores lease while they drain their mailboxes (see
/// ``ChartEngine``): an idle store keeps its configuration and context, not a machine, and a
/// leased machine keeps its buffers and compiled steps from one lease to the next, so stepping
/// allocates nothing once a few machines exist.
///
/// A pool keeps at most `capacity` spare machines (a store that finds none makes one, and one
/// handed back to a full pool is freed): as many as stores of the chart drain at once, up to
/// that bound. A spare keeps the context of the store it last stepped until it is leased again
/// or the pool goes (with the last store of its chart).
///
/// Every store of a chart holds its pool; the chart holds it weakly, so the stores made from a
/// chart share one pool, and a pool whose stores are gone is freed with its spares (a spare
/// holds the chart, so the chart could not hold its pool and ever be freed).
@usableFromInline
final class ChartStepperPool<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable>: @unchecked Sendable {
  // Unchecked: a slot holds a machine that nobody else touches (taken out with an atomic
  // exchange, put back with an atomic compare-and-exchange); `chart` is immutable.
  @usableFromInline typealias Machine = ChartMachine<ID, Event, Context, Effect>

  /// The chart whose machines these are.
  @usableFromInline let chart: Chart<ID, Event, Context, Effect>
  /// `capacity` slots, each 0 or the address of a spare machine.
  @usableFromInline let slots: UnsafeMutablePointer<Atomic<UInt>>
  /// The most spare machines the pool keeps: twice the processors online, and at least 8 (as
  /// many stores can drain at once as there are threads running them).
  @usableFromInline let capacity: Int
  /// The stepper (its address) of the one store that keeps its machine between drains, or 0.
  @usableFromInline let keeper = Atomic<UInt>(0)

  init(_ chart: Chart<ID, Event, Context, Effect>) {
    self.chart = chart
    capacity = max(8, 2 * Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    slots = .allocate(capacity: capacity)
    for i in 0..<capacity { (slots + i).initialize(to: Atomic(0)) }
  }

  deinit {
    for i in 0..<capacity {
      if let machine = UnsafeMutablePointer<Machine>(bitPattern: slots[i].load(ordering: .acquiring)) { Self.free(machine) }
    }
    slots.deinitialize(count: capacity)
    slots.deallocate()
  }

  /// The spare machines kept now (for tests).
  var spares: Int { (0..<capacity).count { slots[$0].load(ordering: .acquiring) != 0 } }

  /// A spare machine (where its last store left it), or a new one at the chart's start with
  /// `context`, tracking the owners of its outputs (as a store needs).
  @inlinable
  func take(context: @autoclosure () -> Context) -> UnsafeMutablePointer<Machine> {
    for i in 0..<capacity where slots[i].load(ordering: .relaxed) != 0 {
      if let machine = UnsafeMutablePointer<Machine>(bitPattern: slots[i].exchange(0, ordering: .acquiring)) { return machine }
    }
    return make(context: context())
  }

  @usableFromInline
  func make(context: Context) -> UnsafeMutablePointer<Machine> {
    let machine = UnsafeMutablePointer<Machine>.allocate(capacity: 1)
    machine.initialize(to: Machine(chart, context: context))
    machine.pointee.tracksOwners = true
    return machine
  }

  /// Hands `machine` back: kept as a spare, or freed when the pool is full.
  @inlinable
  func put(_ machine: UnsafeMutablePointer<Machine>) {
    let address = UInt(bitPattern: machine)
    for i in 0..<capacity where slots[i].load(ordering: .relaxed) == 0 {
      if slots[i].compareExchange(expected: 0, desired: address, ordering: .releasing).exchanged { return }
    }
    Self.free(machine)
  }

  /// Whether the store whose stepper is at `stepper` keeps its machine between drains: the
  /// chart's keeper, which is the first to ask. One machine is then out of the pool while its
  /// store is idle; the chart's busiest store (its only one, often) leases nothing.
  @inlinable
  func mayKeep(_ stepper: UInt) -> Bool {
    let current = keeper.load(ordering: .relaxed)
    if current == stepper { return true }
    return current == 0 && keeper.compareExchange(expected: 0, desired: stepper, ordering: .relaxed).exchanged
  }

  /// The store whose stepper is at `stepper` is freed: it is no longer the keeper.
  @usableFromInline
  func forget(keeper stepper: UInt) { _ = keeper.compareExchange(expected: stepper, desired: 0, ordering: .relaxed) }

  @usableFromInline
  static func free(_ machine: UnsafeMutablePointer<Machine>) {
    machine.deinitialize(count: 1)
    machine.deallocate()
  }
}

extension Chart {
  /// The pool of stepping machines this chart's stores share: the one its stores hold, or a
  /// new one when none is left.
  func stepperPool() -> ChartStepperPool<ID, Event, Context, Effect> {
    tables.stepperPool.withLock { pool in
      if let made = pool.object { return made }
      let made = ChartStepperPool(self)
      pool.object = made
      return made
    }
  }
}

/// A reference that does not keep its object alive.
struct WeakReference<Object: AnyObject> {
  weak var object: Object?
}
