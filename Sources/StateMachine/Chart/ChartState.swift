/// One state of a statechart, with its children, transitions and entry/exit content: the tree a
/// ``Chart`` is built from.
///
/// ```swift
/// let chart = try Chart<String, String, NoContext, String>(name: "player", states: [
///     .compound("on", initial: "stopped", children: [
///         .atomic("stopped", transitions: [.on("play", to: "playing")]),
///         .atomic("playing", transitions: [.on("stop", to: "stopped")]),
///         .history("resume", deep: false, default: ["stopped"]),
///     ], transitions: [.on("off", to: "off")]),
///     .atomic("off", transitions: [.on("on", to: "resume")]),
/// ])
/// ```
public struct ChartState<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable>: Sendable {
  /// A transition of a chart state.
  public typealias Transition = ChartTransition<ID, Event, Context, Effect>
  /// Executable content of a chart state.
  public typealias Action = ChartAction<Event, Context, Effect>

  /// What kind of node this is.
  public enum Kind: Hashable, Sendable {
    /// No children (or only history pseudo-states).
    case atomic
    /// Exactly one child active at a time; `initial` names the target(s) entered by default
    /// (`nil`: the first child in document order).
    case compound(initial: [ID]?)
    /// Every child (region) active at once.
    case parallel
    /// A final state: entering it raises `done.state.<parent>`; a final child of the chart halts it.
    case final
    /// A history pseudo-state of its parent: shallow remembers the parent's active child, deep
    /// every active atomic descendant; `default` is entered when there is no history yet.
    case history(deep: Bool, default: [ID])
  }

  /// The state's id, unique in the chart.
  package var id: ID
  /// Atomic, compound (with its initial states), parallel, final or history.
  package var kind: Kind
  /// The states inside this one, in document order.
  package var children: [ChartState]
  /// The transitions whose source is this state, in priority order.
  package var transitions: [Transition]
  /// Content run when the state is entered.
  package var onEntry: [Action]
  /// Content run when the state is exited.
  package var onExit: [Action]
  /// Content run when the compound is entered by default (SCXML's `<initial>` transition
  /// content), or, for a history state, when its default is taken.
  package var initialActions: [Action]
  /// Where it was declared (a line of a document), for messages.
  package var line: Int?
  /// The charts it invokes while it is active (SCXML's `<invoke>`), in document order.
  public var invokes: [ChartInvoke<ID, Event, Context, Effect>] = []

  /// A state of any kind; the static constructors (``atomic(_:transitions:onEntry:onExit:)`` and the others) read better.
  public init(
    id: ID, kind: Kind, children: [ChartState] = [], transitions: [Transition] = [], onEntry: [Action] = [],
    onExit: [Action] = [], initialActions: [Action] = [], line: Int? = nil
  ) {
    (self.id, self.kind, self.children, self.transitions) = (id, kind, children, transitions)
    (self.onEntry, self.onExit, self.initialActions, self.line) = (onEntry, onExit, initialActions, line)
  }

  /// An atomic state.
  public static func atomic(
    _ id: ID, transitions: [Transition] = [], onEntry: [Action] = [], onExit: [Action] = []
  ) -> ChartState {
    ChartState(id: id, kind: .atomic, transitions: transitions, onEntry: onEntry, onExit: onExit)
  }

  /// A compound state entering `initial` (or its first child) by default.
  public static func compound(
    _ id: ID, initial: ID? = nil, children: [ChartState], transitions: [Transition] = [], onEntry: [Action] = [],
    onExit: [Action] = []
  ) -> ChartState {
    ChartState(
      id: id, kind: .compound(initial: initial.map { [$0] }), children: children, transitions: transitions,
      onEntry: onEntry, onExit: onExit)
  }

  /// A parallel state: each child is a region.
  public static func parallel(
    _ id: ID, regions: [ChartState], transitions: [Transition] = [], onEntry: [Action] = [], onExit: [Action] = []
  ) -> ChartState {
    ChartState(id: id, kind: .parallel, children: regions, transitions: transitions, onEntry: onEntry, onExit: onExit)
  }

  /// A final state.
  public static func final(_ id: ID, onEntry: [Action] = [], onExit: [Action] = []) -> ChartState {
    ChartState(id: id, kind: .final, onEntry: onEntry, onExit: onExit)
  }

  /// A history pseudo-state entering `default` when nothing is remembered yet.
  public static func history(_ id: ID, deep: Bool = false, default targets: [ID]) -> ChartState {
    ChartState(id: id, kind: .history(deep: deep, default: targets))
  }
}

/// A transition of a chart: the events it takes (none: eventless), a guard, targets (none:
/// targetless), external or internal, and its content.
public struct ChartTransition<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable>: Sendable {
  /// Event descriptors: `error` matches `error` and `error.send` (not `errors`); `error.*` the
  /// same; `*` any event. Empty: an eventless transition.
  package var events: [String]
  /// The condition that must hold for the transition to be taken; `nil` always holds.
  package var guardCondition: ChartGuard<ID, Event, Context>?
  /// Empty: a targetless transition (its content runs; no state is left or entered).
  package var targets: [ID]
  /// An internal transition from a compound state to its own descendants does not exit it.
  package var isInternal: Bool
  /// The content run when the transition is taken.
  package var actions: [ChartAction<Event, Context, Effect>]
  /// The line of the document the transition was read from, if any.
  package var line: Int?

  /// A transition on `events` (none: eventless) to `targets` (none: targetless), with its guard and content.
  public init(
    events: [String], guard guardCondition: ChartGuard<ID, Event, Context>? = nil, targets: [ID], isInternal: Bool = false,
    actions: [ChartAction<Event, Context, Effect>] = [], line: Int? = nil
  ) {
    (self.events, self.guardCondition, self.targets, self.isInternal, self.actions, self.line) =
      (events, guardCondition, targets, isInternal, actions, line)
  }

  /// An eventless transition to `target`, taken as soon as its guard holds.
  public static func always(
    when guardCondition: ChartGuard<ID, Event, Context>? = nil, to target: ID, actions: [ChartAction<Event, Context, Effect>] = []
  ) -> ChartTransition {
    ChartTransition(events: [], guard: guardCondition, targets: [target], actions: actions)
  }
}

/// A transition's condition: `In(state)`, or a named predicate on the context and the event
/// (`nil` for eventless transitions).
public struct ChartGuard<ID: Hashable & Sendable, Event: Sendable, Context>: Sendable {
  @usableFromInline
  enum Condition: Sendable {
    case inState(ID)
    case notInState(ID)
    case predicate(@Sendable (Context, Event?) -> Bool)
  }

  /// How analysis and diagrams name it.
  public let name: String
  @usableFromInline let condition: Condition

  /// Holds while `state` is active (SCXML's `In(id)`).
  public static func inState(_ state: ID) -> ChartGuard { ChartGuard(name: "In(\(state))", condition: .inState(state)) }

  /// Holds while `state` is not active (SCXML's `!In(id)`).
  public static func notInState(_ state: ID) -> ChartGuard { ChartGuard(name: "!In(\(state))", condition: .notInState(state)) }

  /// A named predicate.
  public init(_ name: String, _ holds: @escaping @Sendable (Context, Event?) -> Bool) {
    self.name = name
    condition = .predicate(holds)
  }

  init(name: String, condition: Condition) {
    self.name = name
    self.condition = condition
  }
}

/// Executable content: the user's effects, plus raising, sending and cancelling events.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum ChartAction<Event: Sendable, Context, Effect: Sendable>: Sendable {
  /// An effect for the caller to perform.
  case effect(Effect)
  /// An effect made from the context (as the content before it left it) and the event, shown
  /// under `name`; `nil` emits nothing.
  ///
  /// ```swift
  /// .make("login") { context, _ in .perform(.login(phone: context.phone, code: context.code), id: "login", scope: .state) }
  /// ```
  case make(String, @Sendable (Context, Event?) -> Effect?)
  /// Put `event` on the internal queue: handled in the same macrostep, before any external event.
  case raise(Event)
  /// Send `event` to the external queue after `delay` (zero: after the current macrostep); a
  /// pending send with the same `id` can be cancelled.
  case send(Event, after: Duration, id: String?)
  /// Cancel a pending send by its id.
  case cancel(String)
  /// Send `event` to another machine: `#_parent` (the chart that invoked this one) or
  /// `#_<id>` (a chart this one invoked), in SCXML's words; a store's child by its id or path.
  /// The machine makes it an output (``ChartOutput/message(_:to:)``) for its runner to deliver.
  case message(Event, to: String)
  /// Send a message to another machine (as ``message(_:to:)``) after its delay of the runner's
  /// clock, as a table's ``MachineMessage/init(_:to:after:id:)`` does; a pending message with an
  /// id is cancelled by ``cancel(_:)`` with that id. Made by ``message(_:to:after:id:)``, of one
  /// of this chart's events. The machine makes it an output
  /// (``ChartOutput/delayedMessage(_:)``); a store keeps it as a timer until it is due.
  case delayedMessage(MachineMessage)
  /// Change the context; `name` (when given) is how tables and diagrams show it, else `(update)`.
  ///
  /// ```swift
  /// .update("remember the phone") { context, event in if case .editPhone(let text)? = event { context.phone = text } }
  /// ```
  case update(String?, @Sendable (inout Context, Event?) -> Void)
  /// Raise a platform error event (`error.execution`, `error.communication`) on the internal
  /// queue: what an importer emits for content it knows will fail when run.
  case error(String)

  /// Send `event` to another machine after `delay` (XState's `sendTo` with a delay; SCXML's
  /// `<send target="#_child" delay="1s">`); a pending message with an `id` can be cancelled.
  /// A delay of zero (or less) is ``message(_:to:)``, delivered at once (its id then names
  /// nothing to cancel, and is dropped).
  ///
  /// ```swift
  /// .message(.nudge, to: "upload", after: .seconds(5), id: "nudge")
  /// ```
  public static func message(_ event: Event, to target: String, after delay: Duration, id: String? = nil) -> ChartAction {
    delay > .zero ? .delayedMessage(MachineMessage(event, to: target, after: delay, id: id.map { EffectID($0) })) : .message(event, to: target)
  }
}

extension ChartTransition where Event: Discriminated {
  /// A transition on the event case `event` (payloads are matched by case) to `target`. For
  /// `String` events, `event` is a descriptor: `"error"` also matches `error.send`, `"error.*"`
  /// the same, `"*"` anything, `"a b"` either.
  ///
  /// It is external: it exits every active state below its domain, the nearest *compound*
  /// state holding its source and target. A parallel state is never a domain, so a transition
  /// from a region's root to one of its own children exits the whole parallel state and enters
  /// it again: every other region restarts too (unlike XState, where it stays in the region).
  /// Use ``within(_:when:to:actions:)`` to stay; ``Chart/check()`` reports such transitions.
  ///
  /// ```swift
  /// .on(.lock, when: ChartGuard("code is 4 digits") { _, event in event?.code.map { $0 >= 1000 } ?? false }, to: .locked)
  /// ```
  public static func on(
    _ event: Event.Discriminant, when guardCondition: ChartGuard<ID, Event, Context>? = nil, to target: ID,
    actions: [ChartAction<Event, Context, Effect>] = []
  ) -> ChartTransition {
    ChartTransition(events: Self.descriptors(event), guard: guardCondition, targets: [target], actions: actions)
  }

  /// The descriptors an event case stands for: its name (split at spaces, for `String` events).
  static func descriptors(_ event: Event.Discriminant) -> [String] {
    "\(event)".split(separator: " ").map(String.init)
  }

  /// A targetless transition on the event case `event`: its content runs, no state is left.
  public static func on(
    _ event: Event.Discriminant, when guardCondition: ChartGuard<ID, Event, Context>? = nil,
    do actions: [ChartAction<Event, Context, Effect>]
  ) -> ChartTransition {
    ChartTransition(events: Self.descriptors(event), guard: guardCondition, targets: [], actions: actions)
  }

  /// An internal transition on `event` from a compound state to `target` inside it: the
  /// compound is not exited (its entry and exit content do not run).
  public static func within(
    _ event: Event.Discriminant, when guardCondition: ChartGuard<ID, Event, Context>? = nil, to target: ID,
    actions: [ChartAction<Event, Context, Effect>] = []
  ) -> ChartTransition {
    ChartTransition(events: Self.descriptors(event), guard: guardCondition, targets: [target], isInternal: true, actions: actions)
  }
}

extension ChartTransition {
  /// A transition on `done.state.<state>`: raised when a compound `state` enters one of its
  /// final children, or when every region of a parallel `state` has.
  ///
  /// ```swift
  /// .parallel(.form, regions: [...], transitions: [.onDone(of: .form, to: .submitting)])
  /// ```
  public static func onDone(
    of state: ID, when guardCondition: ChartGuard<ID, Event, Context>? = nil, to target: ID,
    actions: [ChartAction<Event, Context, Effect>] = []
  ) -> ChartTransition {
    ChartTransition(events: ["done.state.\(state)"], guard: guardCondition, targets: [target], actions: actions)
  }
}

extension ChartAction {
  /// An unnamed context change, shown as `(update)`.
  public static func update(_ body: @escaping @Sendable (inout Context, Event?) -> Void) -> ChartAction {
    .update(nil, body)
  }

  /// How exports name an effect action: the effect, or the name of the one made later.
  var effectLabel: String? {
    switch self {
    case .effect(let effect): "\(effect)"
    case .make(let name, _): name
    default: nil
    }
  }
}
