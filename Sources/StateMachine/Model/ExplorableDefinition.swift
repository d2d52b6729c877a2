/// A ``MachineDefinition`` that the `Explorer` of StateMachineChecking can explore
/// exhaustively: its machines can be put back where they were, and they gather coverage of
/// its transitions and states. A ``TransitionTable`` whose states and context are `Hashable`
/// is one, and a ``Chart`` whose context is.
///
/// The explorer is written once over this protocol: the same search, limits, truncation,
/// violations and coverage for every kind.
public protocol ExplorableDefinition: MachineDefinition where Context: Hashable {
  /// How coverage and shortest paths name the states: a table's state cases, a chart's state
  /// ids.
  associatedtype StateName: Hashable & Sendable
  /// What an explorer steps (not API: the kinds' own).
  associatedtype _Explorer: _MachineExplorer where _Explorer.Definition == Self

  /// The states coverage counts, numbered as ``_MachineExplorer/keepCoverage()`` numbers them
  /// (`counts` is false for a place that is not a state of its own: a chart's history).
  var _coverageStates: [(name: StateName, counts: Bool)] { get }
  /// The transitions coverage counts (a table's rows, a chart's declared transitions), by the
  /// numbers ``_MachineExplorer/coveredTransitions`` gives them, in increasing order.
  var _coverageTransitions: [Int] { get }
  /// How a transition of ``_coverageTransitions`` is described.
  func _describeTransition(_ t: Int) -> String
  /// What the kind calls its transitions in a coverage line (`rows`, `transitions`).
  static var _transitionsNoun: String { get }
  /// Whether `state` is active in `configuration` (a table's: its state has that case; a
  /// chart's: the state or one of its descendants is active).
  func _isIn(_ state: StateName, _ configuration: Configuration) -> Bool
}

/// What an explorer steps, for one kind of machine (not API: the kinds' own types; an explorer
/// of another kind implements it).
///
/// One stepping machine is put back at every place the search reached (`return(to:context:)`)
/// instead of copied whole; it gathers coverage as it goes.
public protocol _MachineExplorer {
  associatedtype Definition: ExplorableDefinition
  /// Where the machine is, apart from its context: the machine at equal places with equal
  /// contexts steps alike.
  associatedtype Place: Hashable
  /// Why a step was stopped.
  associatedtype Failure: Error

  /// A machine of `definition` at its start, with `context`, gathering coverage and making no
  /// outputs; ``start()`` enters the start configuration.
  init(_ definition: Definition, context: Definition.Context)
  mutating func start() throws(Failure)
  var place: Place { get }
  var context: Definition.Context { get }
  var configuration: Definition.Configuration { get }
  var isHalted: Bool { get }
  /// A number that makes stepping `event` cheaper, worked out once per event (or -1).
  func ordinal(of event: Definition.Event) -> Int
  /// Whether the event with `ordinal` is known, without stepping, to change nothing at `place`
  /// (read from this very machine); `false` when that is not known.
  func isUnhandled(ordinal: Int, at place: Place) -> Bool
  /// The machine put back at `place` (read from this very machine) with `context`.
  mutating func `return`(to place: Place, context: Definition.Context)
  /// Handles `event` (whose ``ordinal(of:)`` is `ordinal`).
  mutating func advance(_ event: Definition.Event, ordinal: Int) throws(Failure) -> MachineResponse
  /// Whether the context may differ from the one the machine was last put back with
  /// (``return(to:context:)``): `false` only when no step since then wrote it. (A kind that
  /// cannot tell answers `true`, the default.)
  var contextMayHaveChanged: Bool { get }
  /// A hash of where the machine is, with a context hashing to `contextHash` (made without
  /// reading its ``place``).
  func placeHash(contextHash: Int) -> Int
  /// Whether the machine is at `place` (contexts aside; compared without reading its ``place``:
  /// most steps reach a place reached before).
  func isAt(_ place: Place) -> Bool
  /// Whether the steps since coverage was last kept or dropped covered anything new.
  var coverageGrew: Bool { get }
  /// Keeps what the steps covered; returns the states (numbered as
  /// ``ExplorableDefinition/_coverageStates``) entered for the first time, in order.
  mutating func keepCoverage() -> [Int]
  /// Takes back what the steps covered since the last keep (a step that failed covers nothing).
  mutating func dropCoverage()
  /// The transitions ever taken, in increasing order.
  var coveredTransitions: [Int] { get }
  /// The first message a machine sent in the last step that no child took, and why (see
  /// ``MachineInstance/_undeliveredMessage``; `nil`, the default, for a kind that sends none).
  var _undeliveredMessage: String? { get }
}

extension _MachineExplorer {
  /// A kind that cannot tell whether a step wrote its context says it may have.
  @inlinable public var contextMayHaveChanged: Bool { true }

  /// A kind whose steps send no messages leaves none undelivered.
  @inlinable public var _undeliveredMessage: String? { nil }
}

/// Mixes `word` into `h` (the explorers' hashes of a place: no `Hasher`).
@inlinable
func _mix(_ h: inout UInt64, _ word: UInt64) {
  h = (h ^ word) &* 0x9E37_79B9_7F4A_7C15
  h ^= h >> 29
}
