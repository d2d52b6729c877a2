/// A set of state indices as bits: the configuration, hashable so it can key a cache. Charts
/// of up to 64 states keep it in one word, without reference counting.
@usableFromInline
struct StateBits: Hashable, Sendable {
  @usableFromInline var small: UInt64 = 0
  @usableFromInline var large: [UInt64]?

  @usableFromInline
  init(count: Int) { if count > 64 { large = [UInt64](repeating: 0, count: (count + 63) / 64) } }

  @inlinable
  subscript(_ s: Int) -> Bool {
    get {
      guard let large else { return small & (1 << UInt64(s)) != 0 }
      return large[s >> 6] & (1 << UInt64(s & 63)) != 0
    }
    set {
      if large == nil {
        if newValue { small |= 1 << UInt64(s) } else { small &= ~(1 << UInt64(s)) }
      } else if newValue {
        large![s >> 6] |= 1 << UInt64(s & 63)
      } else {
        large![s >> 6] &= ~(1 << UInt64(s & 63))
      }
    }
  }
}

/// What one macrostep did, recorded so that the same event in the same configuration can be
/// replayed without running the algorithm again: the content that ran (in order), history
/// written, and where the chart ended.
///
/// Only charts whose guards are all `In(state)` (their selection depends on the configuration
/// alone) are planned, and a macrostep that enters a history state with a remembered value is
/// never planned (what it enters depends on the past).
@usableFromInline
struct ChartPlan<Event: Sendable, Context, Effect: Sendable> {
  /// Which event an action's content saw: the external one, or a raised one, or none.
  @usableFromInline
  enum Source {
    case external
    case recorded(Event?)
  }

  @usableFromInline var actions: [(ChartAction<Event, Context, Effect>, Source)] = []
  /// Per action, the state its output belongs to.
  @usableFromInline var owners: [Int] = []
  /// The states the macrostep exits, with the number of outputs before each.
  @usableFromInline var exits: [ChartExit] = []
  @usableFromInline var historyWrites: [(Int, [Int])] = []
  @usableFromInline var end = StateBits(count: 0)
  @usableFromInline var halted = false
  @usableFromInline var microsteps = 0
  @usableFromInline var transitioned = false
  @usableFromInline var taken: [Int] = []
  @usableFromInline var entered: [Int] = []
  /// The id of `end` in the ``PlanBook``.
  @usableFromInline var endID = 0

  /// Transitions with no content and no history to write.
  @inlinable var isPlain: Bool { transitioned && actions.isEmpty && historyWrites.isEmpty }

  @usableFromInline init() {}
}

/// The plans of one machine: configurations get small ids, and each configuration lists the
/// events planned from it (a short list, scanned: cheaper than hashing for the few events a
/// configuration handles).
@usableFromInline
struct PlanBook<Event: Sendable, Context, Effect: Sendable> {
  @usableFromInline var ids: [StateBits: Int] = [:]
  @usableFromInline var byConfiguration: [[(event: String, plan: Int)]] = []
  @usableFromInline var plans: [ChartPlan<Event, Context, Effect>] = []
  /// `dense[id << 6 | ordinal]`: the plan for an event with that ordinal (below 64) from
  /// configuration `id`, or -1.
  @usableFromInline var dense: [Int32] = []
  /// Per plan, what the fast path needs when the plan is a plain move (no content, no history)
  /// of a chart of up to 64 states: where it ends, in one word.
  @usableFromInline var quick: [Quick] = []

  @usableFromInline
  struct Quick {
    /// The end configuration's bits, when `isSmallPlainMove`.
    @usableFromInline var end: UInt64
    @usableFromInline var endID: Int32
    @usableFromInline var microsteps: Int32
    @usableFromInline var isSmallPlainMove: Bool
    @usableFromInline var halts: Bool

    @usableFromInline
    init(end: UInt64, endID: Int32, microsteps: Int32, isSmallPlainMove: Bool, halts: Bool) {
      (self.end, self.endID, self.microsteps, self.isSmallPlainMove, self.halts) = (end, endID, microsteps, isSmallPlainMove, halts)
    }
  }

  @usableFromInline init() {}

  /// The plan for the event with `ordinal` from configuration `id`, if one was recorded.
  @inlinable
  func plan(from id: Int, ordinal: Int) -> Int? {
    let slot = id << 6 | ordinal
    guard ordinal < 64, slot < dense.count else { return nil }
    let plan = Int(dense[slot])
    return plan >= 0 ? plan : nil
  }

  /// The plan for `event` from configuration `id`, if one was recorded.
  @inlinable
  func plan(from id: Int, event: String) -> Int? {
    for entry in byConfiguration[id] where entry.event == event { return entry.plan }
    return nil
  }

  /// The id of `configuration`, given it if it has none yet.
  @usableFromInline
  mutating func id(of configuration: StateBits) -> Int {
    if let id = ids[configuration] { return id }
    ids[configuration] = byConfiguration.count
    byConfiguration.append([])
    return byConfiguration.count - 1
  }

  @usableFromInline
  mutating func add(_ plan: ChartPlan<Event, Context, Effect>, from id: Int, event: String, ordinal: Int?) {
    if let ordinal, ordinal >= 0, ordinal < 64 {
      let slot = id << 6 | ordinal
      if dense.count <= slot { dense += repeatElement(-1, count: (slot | 63) + 1 - dense.count) }
      dense[slot] = Int32(plans.count)
    }
    byConfiguration[id].append((event, plans.count))
    quick.append(Quick(
      end: plan.end.small, endID: Int32(plan.endID), microsteps: Int32(clamping: plan.microsteps), isSmallPlainMove: plan.isPlain && plan.end.large == nil, halts: plan.halted))
    plans.append(plan)
  }
}


extension ChartPlan: Sendable {}
extension ChartPlan.Source: Sendable {}
extension PlanBook: Sendable {}
extension PlanBook.Quick: Sendable {}
