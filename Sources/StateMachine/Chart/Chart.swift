/// A statechart: a tree of states (atomic, compound, parallel, final, history) with transitions,
/// checked and compiled into dense arrays in document order. Run it with a ``ChartMachine``,
/// which follows the W3C SCXML algorithm (the recommendation's Appendix D).
///
/// States are numbered in document order (a pre-order walk); index 0 is the chart's root. The
/// descendants of state `i` are exactly the indices `i + 1 ..< end[i]`, so ancestry is two
/// comparisons.
///
/// Charts read from documents (``SCXMLDocument``) use `String` ids and events, as spec files do.
public struct Chart<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable>: Sendable {
  /// A state of this chart, as declared.
  public typealias State = ChartState<ID, Event, Context, Effect>
  /// A transition of this chart, as declared.
  public typealias Transition = ChartTransition<ID, Event, Context, Effect>
  /// Executable content of this chart.
  public typealias Action = ChartAction<Event, Context, Effect>

  @usableFromInline
  enum Kind: Hashable, Sendable {
    case atomic, compound, parallel, final, shallowHistory, deepHistory
  }

  /// The chart's name.
  public var name: String { tables.name }
  /// How an event is named for matching transition descriptors.
  @inlinable var eventName: @Sendable (Event) -> String { tables.eventName }
  /// How a delayed message's event is named (``ChartAction/delayedMessage(_:)``): as this
  /// chart's events are, or by its text when it was made of another type.
  func messageName(_ message: MachineMessage) -> String { message.event(as: Event.self).map(eventName) ?? message.text }
  /// A small number per event name, when the events are ``Discriminated`` with ordinals: lets
  /// a machine find what it compiled for the event with an array load instead of comparing names.
  @inlinable var eventOrdinal: (@Sendable (Event) -> Int?)? { tables.eventOrdinal }
  /// Everything, behind one reference: copying a chart (or a machine, which holds one) is one
  /// reference count, and a chart is one word.
  @usableFromInline let tables: ChartTables<ID, Event, Context, Effect>

  /// Per state (index 0: the root, which has no id).
  @inlinable var ids: [ID?] { tables.ids }
  @inlinable var kinds: [Kind] { tables.kinds }
  @inlinable var parents: [Int] { tables.parents }
  /// One past the last descendant: descendants of `i` are `i + 1 ..< ends[i]`.
  var ends: [Int] { tables.ends }
  /// Child states (not history), in document order.
  var children: [[Int]] { tables.children }
  var histories: [[Int]] { tables.histories }
  @inlinable var onEntry: [[Action]] { tables.onEntry }
  @inlinable var onExit: [[Action]] { tables.onExit }
  /// Per compound state (and the root): its default entry, a transition index; per history
  /// state: its default transition. -1 elsewhere.
  @inlinable var defaultTransition: [Int] { tables.defaultTransition }
  /// Transitions of each state, in document order.
  var stateTransitions: [[Int]] { tables.stateTransitions }
  @inlinable var index: [ID: Int] { tables.index }

  // Transitions.
  var sources: [Int] { tables.sources }
  var descriptors: [[String]] { tables.descriptors }
  @inlinable var guards: [ChartGuard<ID, Event, Context>?] { tables.guards }
  var targets: [[Int]] { tables.targets }
  var isInternal: [Bool] { tables.isInternal }
  @inlinable var actions: [[Action]] { tables.actions }

  /// The states in document order, as declared (history included).
  var stateIDs: [ID] { ids.compactMap { $0 } }

  /// Builds and checks a chart. `states` are the root's children; `initial` names what the
  /// chart enters first (default: the first state).
  ///
  /// - Throws: ``ChartError`` listing every problem: duplicate or unknown ids, an initial that
  ///   is not a descendant, a history outside a compound, a final with children or transitions,
  ///   a compound without children, two invocations (``ChartInvoke``) of one id that can run at
  ///   once.
  public init(
    name: String, initial: [ID]? = nil, states: [State], initialActions: [Action] = [],
    eventName: @escaping @Sendable (Event) -> String
  ) throws(ChartError) {
    try self.init(name: name, initial: initial, states: states, initialActions: initialActions, eventName: eventName, eventOrdinal: nil)
  }

  @usableFromInline
  init(
    name: String, initial: [ID]?, states: [State], initialActions: [Action], eventName: @escaping @Sendable (Event) -> String,
    eventOrdinal: (@Sendable (Event) -> Int?)?, scripting: ChartScripting<Event, Context, Effect>? = nil
  ) throws(ChartError) {
    var builder = ChartBuilder<ID, Event, Context, Effect>()
    builder.build(root: states, initial: initial, initialActions: initialActions)
    let problems = builder.check()
    guard problems.isEmpty else { throw ChartError(chart: name, problems: problems) }
    tables = ChartTables(builder, name: name, eventName: eventName, eventOrdinal: eventOrdinal, scripting: scripting)
  }

  @inlinable var count: Int { kinds.count }

  /// `a` is a proper descendant of `b`.
  @inline(__always) func isDescendant(_ a: Int, of b: Int) -> Bool { a > b && a < ends[b] }

  func isAtomic(_ s: Int) -> Bool { kinds[s] == .atomic || kinds[s] == .final }
  func isCompound(_ s: Int) -> Bool { kinds[s] == .compound }
  func isHistory(_ s: Int) -> Bool { kinds[s] == .shallowHistory || kinds[s] == .deepHistory }

  /// A state's name for messages and configurations.
  func label(_ s: Int) -> String { ids[s].map { "\($0)" } ?? "(chart)" }
}

extension Chart where Event: Discriminated {
  /// Builds a chart whose events are your own ``Discriminated`` values: a transition's
  /// descriptor matches an event's discriminant by its name (`"\(discriminant)"`), and
  /// discriminants with an integer raw value (or payload-free enums) find what the machine
  /// compiled for them by that number.
  ///
  /// ```swift
  /// enum Input: UInt8, Discriminated { case play, stop }
  /// let chart = try Chart<String, Input, NoContext, String>(name: "player", states: [...])
  /// ```
  @inlinable
  public init(name: String, initial: [ID]? = nil, states: [State], initialActions: [Action] = []) throws(ChartError) {
    try self.init(
      name: name, initial: initial, states: states, initialActions: initialActions, eventName: { "\($0.discriminant)" },
      eventOrdinal: { discriminantOrdinal(of: $0) })
  }
}

/// The number of `event`'s case: the discriminant's own ordinal, else its byte (see
/// ``plainByteOrdinal(_:)``). The one formula for a chart's stored numbering and for
/// `ChartMachine.send(_:)` on `Discriminated` events, which must agree.
@inlinable
func discriminantOrdinal<Event: Discriminated>(of event: Event) -> Int? {
  let discriminant = event.discriminant
  return Event.ordinal(of: discriminant) ?? plainByteOrdinal(discriminant)
}

/// A discriminant of one trivial byte (an enum without payloads, up to 256 cases) as that
/// byte: a number per case, for a type that gives none, so the chart finds what it compiled
/// for the event by number rather than by name. The bytes of a trivial value determine it, so
/// two different cases never share a number.
@inlinable
func plainByteOrdinal<D>(_ discriminant: D) -> Int? {
  guard _isPOD(D.self), MemoryLayout<D>.size == 1 else { return nil }
  return Int(withUnsafeBytes(of: discriminant) { $0[0] })
}

extension Chart where Event == String {
  /// Builds a chart whose events are their own names.
  public init(name: String, initial: [ID]? = nil, states: [State], initialActions: [Action] = []) throws(ChartError) {
    try self.init(name: name, initial: initial, states: states, initialActions: initialActions, eventName: { $0 })
  }
}

/// A chart's compiled arrays, in document order, behind one reference (immutable once built,
/// but for the compiled steps its machines share through `learnt`).
@usableFromInline
final class ChartTables<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable>: Sendable {
  @usableFromInline typealias Action = ChartAction<Event, Context, Effect>
  /// The chart's name.
  @usableFromInline let name: String
  /// How an event is named for matching transition descriptors.
  @usableFromInline let eventName: @Sendable (Event) -> String
  /// A small number per event name, when the chart was built for ``Discriminated`` events.
  @usableFromInline let eventOrdinal: (@Sendable (Event) -> Int?)?
  @usableFromInline let ids: [ID?]
  @usableFromInline let kinds: [Chart<ID, Event, Context, Effect>.Kind]
  @usableFromInline let parents: [Int]
  let ends: [Int]
  let children: [[Int]]
  let histories: [[Int]]
  @usableFromInline let onEntry: [[Action]]
  @usableFromInline let onExit: [[Action]]
  /// Per state, the charts it invokes.
  let invokes: [[ChartInvoke<ID, Event, Context, Effect>]]
  /// A datamodel's hooks, when one runs the chart's content (see ``ChartScripting``).
  @usableFromInline let scripting: ChartScripting<Event, Context, Effect>?
  /// Whether `scripting` is set (a flag, read after every make).
  @usableFromInline let isScripted: Bool
  /// Whether any state invokes a chart (read by every store made of the chart: worked out
  /// once, as the unspecialised walk over `invokes` was a fifth of a chart store's making).
  let declaresInvokes: Bool
  /// Why a store cannot run the chart's invocations (`nil`: it can, each the last entry
  /// content of its state, or there are none; see ``ChartInvocationCommand``).
  let invokeRefusal: String?
  /// The event `error.communication`, for a chart whose invocations a store runs (named as
  /// their `done.invoke.<id>` is): what it gets when a message it sends reaches no machine.
  @usableFromInline let communicationError: Event?
  /// The invocations that take a copy of every external event (see ``ChartMachine/forwardingRun(_:ordinal:)``).
  @usableFromInline let forwards: [Forward]
  /// Whether `forwards` has any: read by every macrostep's slow lane and every new machine, a
  /// flag (the array's emptiness, asked there, retained and released it).
  @usableFromInline let hasForwards: Bool
  /// The invocations with a `<finalize>`, by the state that declares them (see
  /// ``ChartMachine/finalize(_:)``).
  let finalizers: [Finalizer]
  /// Whether `finalizers` has any (a flag, read by every external event, as ``hasForwards``).
  @usableFromInline let hasFinalizers: Bool
  /// Whether the context is held by a reference that goes on changing (``KeptByCopy``, a
  /// session): what keeps a context (a step's report, an explorer's position, a detached
  /// machine) keeps a copy. Worked out once per chart.
  @usableFromInline let copiesContexts = Context.self is any KeptByCopy.Type
  @usableFromInline let defaultTransition: [Int]
  let stateTransitions: [[Int]]
  @usableFromInline let index: [ID: Int]
  let sources: [Int]
  let descriptors: [[String]]
  @usableFromInline let guards: [ChartGuard<ID, Event, Context>?]
  let targets: [[Int]]
  let isInternal: [Bool]
  @usableFromInline let actions: [[Action]]
  /// Per transition, the state an `In()` (or `!In()`) guard names, as an index; -1 for another
  /// guard, none, or a state the chart does not have.
  @usableFromInline let guardStates: [Int]
  /// Per transition, what its guard is (see ``GuardKind``), so a step tests it without
  /// copying the guard.
  @usableFromInline let guardKinds: [GuardKind]
  /// Per transition, its guard's predicate when it has one.
  @usableFromInline let predicates: [(@Sendable (Context, Event?) -> Bool)?]
  /// Every state's entry and exit content and every transition's content, in one array: a
  /// step runs a ``ContentBlock`` of it without holding a reference per block.
  @usableFromInline let content: [Action]
  /// Per item of `content`: its updating closure when it is an update (called without copying
  /// the action out of `content`).
  @usableFromInline let updates: [(@Sendable (inout Context, Event?) -> Void)?]
  /// Per item of `content`: its closure when it makes an effect.
  @usableFromInline let makes: [(@Sendable (Context, Event?) -> Effect?)?]
  /// Per state, its entry content in `content`.
  @usableFromInline let entryBlocks: [ContentBlock]
  /// Per state, its exit content in `content`.
  @usableFromInline let exitBlocks: [ContentBlock]
  /// Per transition, its content in `content`.
  @usableFromInline let transitionBlocks: [ContentBlock]
  /// The compiled steps (``CompiledSteps``) the chart's machines have learnt: a new machine
  /// starts from them (sharing their storage until it learns more), and a machine that has
  /// learnt much more than it started with hands its own back. Locked only then.
  /// (`Locked`, a pthread mutex, not `Synchronization.Mutex`, whose futex waits ThreadSanitizer
  /// cannot see.)
  @usableFromInline let learnt = Locked(CompiledStorage(CompiledSteps()))
  /// The pool of stepping machines this chart's stores share (see ``ChartStepperPool``), held
  /// by the stores, not by the chart.
  let stepperPool = Locked(WeakReference<ChartStepperPool<ID, Event, Context, Effect>>())

  /// Whether the content in `range` only makes outputs (effects, sends, cancels): a machine
  /// that discards outputs runs none of it.
  func makesOutputsOnly(_ range: Range<Int>) -> Bool {
    range.allSatisfy { i in
      switch content[i] {
      case .effect, .make, .send, .cancel, .message, .delayedMessage: true
      case .raise, .update, .error: false
      }
    }
  }

  init(
    _ builder: ChartBuilder<ID, Event, Context, Effect>, name: String, eventName: @escaping @Sendable (Event) -> String,
    eventOrdinal: (@Sendable (Event) -> Int?)?, scripting: ChartScripting<Event, Context, Effect>?
  ) {
    (self.name, self.eventName, self.eventOrdinal, self.scripting) = (name, eventName, eventOrdinal, scripting)
    isScripted = scripting != nil
    (ids, kinds, parents, ends, children, histories) =
      (builder.ids, builder.kinds, builder.parents, builder.ends, builder.children, builder.histories)
    (onEntry, onExit, defaultTransition, stateTransitions, index) =
      (builder.onEntry, builder.onExit, builder.defaultTransition, builder.stateTransitions, builder.index)
    invokes = builder.invokes
    declaresInvokes = builder.invokes.contains { !$0.isEmpty }
    (sources, descriptors, guards, targets, isInternal, actions) =
      (builder.sources, builder.descriptors, builder.guards, builder.resolvedTargets, builder.isInternal, builder.actions)
    let index = builder.index
    guardStates = builder.guards.map { condition in
      switch condition?.condition {
      case .inState(let id)?, .notInState(let id)?: index[id] ?? -1
      default: -1
      }
    }
    guardKinds = builder.guards.map { condition in
      switch condition?.condition {
      case nil: .none
      case .inState?: .inState
      case .notInState?: .notInState
      case .predicate?: .predicate
      }
    }
    predicates = builder.guards.map { condition in
      if case .predicate(let holds)? = condition?.condition { holds } else { nil }
    }
    var content: [Action] = []
    func block(_ actions: [Action]) -> ContentBlock {
      let start = content.count
      content += actions
      return ContentBlock(start: Int32(start), end: Int32(content.count))
    }
    // A state's invocations start after its own entry content (as SCXML's, after the
    // macrostep), and are not declared content: an export writes them as invocations.
    let invocations = Self.invocations(builder, scripted: scripting != nil)
    // (A datamodel's chart has its own, a platform event, whether it invokes or not: its sends
    // may name any chart.)
    (invokeRefusal, forwards) = (invocations.refusal, invocations.forwards)
    communicationError = scripting?.communicationError ?? invocations.communicationError
    hasForwards = !invocations.forwards.isEmpty
    (finalizers, hasFinalizers) = (invocations.finalizers, !invocations.finalizers.isEmpty)
    entryBlocks = builder.onEntry.indices.map { s in block(builder.onEntry[s] + invocations.entries[s]) }
    exitBlocks = builder.onExit.map(block)
    transitionBlocks = builder.actions.map(block)
    self.content = content
    updates = content.map { if case .update(_, let update) = $0 { update } else { nil } }
    makes = content.map { if case .make(_, let make) = $0 { make } else { nil } }
  }
}

/// What a transition's guard is.
@usableFromInline
enum GuardKind: UInt8, Sendable {
  case none, inState, notInState, predicate
}

/// A range of a chart's flattened content.
@usableFromInline
struct ContentBlock: Sendable {
  @usableFromInline let start: Int32
  @usableFromInline let end: Int32

  @inlinable var isEmpty: Bool { start == end }

  @usableFromInline
  init(start: Int32, end: Int32) { (self.start, self.end) = (start, end) }
}

/// Why a chart could not be built: every problem found, each with where it was declared.
public struct ChartError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The chart's name.
  public let chart: String
  /// Every problem found, in declaration order.
  public let problems: [ChartProblem]

  public var description: String {
    "chart '\(chart)' has \(problems.count) problem\(problems.count == 1 ? "" : "s"):\n"
      + problems.map { "  " + $0.description }.joined(separator: "\n")
  }
}

/// One problem of a chart's structure.
public struct ChartProblem: Hashable, Sendable, CustomStringConvertible {
  /// The state the problem is about (its id as text), if one.
  public let state: String?
  /// The line it was declared on, when the chart came from a document.
  public let line: Int?
  /// What is wrong.
  public let message: String

  public var description: String {
    (line.map { "line \($0): " } ?? "") + (state.map { "state '\($0)': " } ?? "") + message
  }
}
