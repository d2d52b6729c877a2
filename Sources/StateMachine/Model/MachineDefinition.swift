/// A kind of machine, as every tool that runs any kind sees it: a flat ``TransitionTable`` is
/// one definition and a ``Chart`` another. The property checks of `StateMachineChecking`
/// (`PropertyCheck`: seeded walks, invariants, shrinking) are written once over this protocol,
/// so a table and a chart are checked by the same code, with the same limits and messages.
///
/// A definition is an immutable value, shared by the running machines made from it, its
/// ``Instance``s.
///
/// ```swift
/// func walk<D: MachineDefinition>(_ definition: D, context: D.Context, events: [D.Event]) throws -> D.Configuration {
///     var machine = D.Instance(definition, context: context)
///     try machine.begin()
///     for event in events { _ = try machine.step(event) }
///     return machine.configuration
/// }
/// ```
public protocol MachineDefinition<Event, Context>: Sendable {
  /// What the machine is sent.
  associatedtype Event: Sendable
  /// The extended state its guards read and its actions update.
  associatedtype Context
  /// What its steps ask the caller to do.
  associatedtype Effect: Sendable
  /// Where a running machine is, as invariants read it: a table's current state, a chart's
  /// active atomic states in document order.
  associatedtype Configuration
  /// A running machine of this definition.
  associatedtype Instance: MachineInstance<Self>

  /// The machine's name, as messages and logs show it.
  var name: String { get }

  /// A test of whether a configuration is a dead end (a machine there can never leave it, and
  /// it is not final), worked out once: the checks call it after every step. Not API (for
  /// `StateMachineChecking`'s explorer and property checks).
  func _deadEndTest() -> @Sendable (Configuration) -> Bool
}

/// A running machine of a ``MachineDefinition``: its configuration and context, stepped one
/// event at a time. A value type; stepping it performs nothing (the effects are the caller's).
public protocol MachineInstance<Definition> {
  /// The definition it runs.
  associatedtype Definition: MachineDefinition where Definition.Instance == Self
  /// Why a step was stopped (`Never` for a kind whose steps always end).
  associatedtype Failure: Error

  /// A machine of `definition`, at its start, with `context`; call ``begin()`` before the
  /// first step.
  init(_ definition: Definition, context: Definition.Context)

  /// Where the machine is.
  var configuration: Definition.Configuration { get }
  /// Its current context.
  var context: Definition.Context { get }

  /// Enters the start configuration: nothing to do for a table, whose machine is made in its
  /// initial state; a chart's first macrostep. Calling it again does nothing.
  mutating func begin() throws(Failure)

  /// Handles `event`, to completion (a chart's whole macrostep), and says what it did.
  mutating func step(_ event: Definition.Event) throws(Failure) -> MachineResponse

  /// For checkers, which read the configuration and context alone: from now on the machine
  /// may skip making its steps' outputs. Not API (the default does nothing).
  mutating func _discardOutputs()

  /// For checkers that send the same events again and again: a number that makes stepping
  /// `event` cheaper, worked out once per event (-1: none). Not API (the default is -1).
  func _ordinal(of event: Definition.Event) -> Int

  /// ``step(_:)`` for an event whose ``_ordinal(of:)`` is `ordinal`. Not API (the default
  /// steps as ``step(_:)`` does).
  mutating func _step(_ event: Definition.Event, ordinal: Int) throws(Failure) -> MachineResponse

  /// For checkers that copy a machine to step the copy: the machine steps a context of its own
  /// from now on, when its context is held by a reference that changes as it steps (an SCXML
  /// session), so that the original's does not change. Not API (the default does nothing).
  mutating func _detachContext()

  /// The first message a machine sent in the last step that no child took, and why (a
  /// system's: see `SystemMachine.undeliveredMessage`). Not API (the default, for a kind whose
  /// steps send no messages, is `nil`, and a checker's test of it is compiled away).
  var _undeliveredMessage: String? { get }

  /// Where a running machine is, as a value to keep and restore: a table's state and context
  /// (``TableSnapshot``), a chart's active states, history, context and halting
  /// (``ChartSnapshot``). `Codable` when the states and the context are.
  associatedtype Snapshot
  /// Why a snapshot does not fit a definition.
  associatedtype RestoreFailure: Error

  /// Where the machine is now.
  var snapshot: Snapshot { get }

  /// A machine of `definition` where `snapshot` says, started: stepping it goes on from there as
  /// the machine the snapshot was taken of would have.
  ///
  /// - Throws: ``RestoreFailure`` when the snapshot is not a place `definition` can be (a state
  ///   the table does not know; a configuration the chart cannot be in), before anything is
  ///   restored.
  init(_ definition: Definition, restoring snapshot: Snapshot) throws(RestoreFailure)
}

extension MachineInstance {
  @inlinable
  public mutating func _discardOutputs() {}

  @inlinable
  public func _ordinal(of event: Definition.Event) -> Int { -1 }

  @inlinable
  public mutating func _step(_ event: Definition.Event, ordinal: Int) throws(Failure) -> MachineResponse { try step(event) }

  @inlinable
  public mutating func _detachContext() {}

  @inlinable
  public var _undeliveredMessage: String? { nil }
}

/// What one event did to a running machine, as the tools that run every kind of machine read
/// it (a kind's own step says more: a table's ``StepOutcome``, a chart's ``ChartStep``).
///
/// A struct with static members, not an enum: a kind added later may respond in new ways
/// without breaking a `switch`.
public struct MachineResponse: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline
  enum Kind: UInt8, Sendable { case handled, ignored, rejected }

  @usableFromInline let kind: Kind
  /// Why the event was rejected; `nil` unless it was.
  public let rejection: String?

  @inlinable
  init(_ kind: Kind, rejection: String? = nil) { (self.kind, self.rejection) = (kind, rejection) }

  /// The event was handled: the configuration, the context, or both may have changed.
  @inlinable public static var handled: MachineResponse { MachineResponse(.handled) }
  /// The event matched nothing and nothing changed: a chart's unhandled event (or any event
  /// once it has halted), a table's event that a row says to ignore.
  @inlinable public static var ignored: MachineResponse { MachineResponse(.ignored) }
  /// The machine refused the event (a table with no row for it in its state), for `reason`:
  /// nothing changed.
  @inlinable public static func rejected(_ reason: String) -> MachineResponse { MachineResponse(.rejected, rejection: reason) }

  /// Whether the event was handled (see ``handled``).
  @inlinable public var isHandled: Bool { kind == .handled }
  /// Whether the machine refused the event (see ``rejected(_:)``).
  @inlinable public var isRejected: Bool { kind == .rejected }

  public var description: String {
    switch kind {
    case .handled: "handled"
    case .ignored: "ignored"
    case .rejected: "rejected: \(rejection ?? "")"
    }
  }
}

// MARK: The two kinds

extension TransitionTable: MachineDefinition where Effect: Sendable {
  /// A table's running machine.
  public typealias Instance = Machine<State, Event, Context, Effect>

  /// Whether a state is a dead end (its case is among the analysis's `deadEnds`).
  public func _deadEndTest() -> @Sendable (State) -> Bool {
    let deadEnds = Set(analyze().deadEnds)
    return { deadEnds.contains($0.discriminant) }
  }
}

extension Machine: MachineInstance where Effect: Sendable {

  /// A table's machine is made in its initial state: there is nothing to enter.
  @inlinable
  public mutating func begin() {}

  /// ``send(_:)``, as the tools read it: transitioned or stayed is handled, ignored is
  /// ignored, rejected is rejected.
  @inlinable
  public mutating func step(_ event: Event) -> MachineResponse { send(event).response }

  /// The current state.
  @inlinable
  public var configuration: State { state }


  /// Where the machine is now: its state and context.
  public var snapshot: TableSnapshot<State, Context> { TableSnapshot(state: state, context: context) }

  /// A machine of `table` in the snapshot's state and context.
  ///
  /// - Throws: ``TableValidationError`` when the table does not know the state's case.
  public init(_ table: TransitionTable<State, Event, Context, Effect>, restoring snapshot: TableSnapshot<State, Context>) throws(TableValidationError) {
    try self.init(table, state: snapshot.state, context: snapshot.context)
  }
}

/// Where a table's machine is: its state and context. `Codable` when both are, so a running
/// table can be saved and restored (``Machine/init(_:restoring:)``).
///
/// ```swift
/// let data = try JSONEncoder().encode(machine.snapshot)
/// let snapshot = try JSONDecoder().decode(TableSnapshot<Login.State, Login.Context>.self, from: data)
/// var restored = try Machine(Login.table, restoring: snapshot)
/// ```
public struct TableSnapshot<State, Context> {
  /// The current state.
  public var state: State
  /// The context.
  public var context: Context

  /// A snapshot of `state` with `context`.
  public init(state: State, context: Context) { (self.state, self.context) = (state, context) }
}

extension TableSnapshot: Codable where State: Codable, Context: Codable {}
extension TableSnapshot: Equatable where State: Equatable, Context: Equatable {}
extension TableSnapshot: Hashable where State: Hashable, Context: Hashable {}
extension TableSnapshot: Sendable where State: Sendable, Context: Sendable {}

extension Chart: MachineDefinition {
  /// A chart's running machine.
  public typealias Instance = ChartMachine<ID, Event, Context, Effect>

  /// Whether the chart can never leave a configuration: no active state, nor any of their
  /// ancestors, has a transition, and no active state is final (a final state's done event
  /// may still be handled; a final child of the root halts the chart, which is an end).
  public func _deadEndTest() -> @Sendable ([ID]) -> Bool { isDeadEnd }

  /// Whether the chart can never leave `configuration` (see `_deadEndTest()`).
  @Sendable
  func isDeadEnd(_ configuration: [ID]) -> Bool {
    for id in configuration {
      guard var s = index[id] else { continue }
      if kinds[s] == .final { return false }
      while s > 0 {
        if !stateTransitions[s].isEmpty { return false }
        s = parents[s]
      }
    }
    return !configuration.isEmpty
  }
}

extension ChartMachine: MachineInstance {

  @inlinable
  public mutating func _discardOutputs() { discardsOutputs = true }

  /// ``start()`` (its step dropped); nothing when the machine has started.
  @inlinable
  public mutating func begin() throws(ChartRunError) {
    if !isStarted { _ = try start() }
  }


  /// The macrostep of `event`, as the tools read it: transitioned is handled; unhandled, and
  /// any event after the chart halted, are ignored.
  @inlinable
  public mutating func step(_ event: Event) throws(ChartRunError) -> MachineResponse {
    try send(event).outcome.response
  }

  /// The event's number in the chart's compiled steps (-1: none), worked out once per event by a
  /// checker: reading it through the chart's stored numbering on every step was a tenth of a walk.
  @inlinable
  public func _ordinal(of event: Event) -> Int { ordinal(of: event) }

  @inlinable
  public mutating func _step(_ event: Event, ordinal: Int) throws(ChartRunError) -> MachineResponse {
    try send(event, ordinal: ordinal).outcome.response
  }

  public mutating func _detachContext() { detachContext() }
}
