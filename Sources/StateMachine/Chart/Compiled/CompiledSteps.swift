/// What the SCXML algorithm computes on every step that depends on neither the context nor the
/// event's payload, computed once per configuration and kept: for each event, the candidate
/// transitions of each active atomic state in the order the algorithm tries them; for each set
/// of transitions taken together, the states exited (and the history they leave), the owners of
/// their content, the states entered with their default and history content and the done
/// events they raise, and the configuration reached.
///
/// A configuration here is the active states and what every history state remembers (a move
/// into a history state depends on it), as one ``Key``. Guards still run on every step, and so
/// does all content: only the set arithmetic is kept. Filled as the machine meets
/// configurations, up to ``maxNodes`` of them and ``maxMoves`` moves; past that the machine
/// runs the algorithm as it is.
@usableFromInline
struct CompiledSteps: Sendable {
  /// A configuration: the active states, and the history states with a value (their own bit)
  /// with the states they remember. All histories of one state are written together, from one
  /// configuration, so their union tells each one's value.
  @usableFromInline
  struct Key: Hashable, Sendable {
    @usableFromInline var active: StateBits
    @usableFromInline var history: StateBits
  }

  /// One configuration's compiled selections and moves.
  @usableFromInline
  struct Node: Sendable {
    @usableFromInline var key: Key
    /// Event ordinal (below 64) → index in `selections`, or -1 when not compiled yet.
    @usableFromInline var byOrdinal: [Int32] = []
    /// Events without an ordinal (internal and `String` events), by name.
    @usableFromInline var byName: [Named] = []
    /// The eventless transitions' selection, or -1.
    @usableFromInline var eventless: Int32 = -1
    /// Sets of transitions taken together (in the order selected) → index in `moves`.
    @usableFromInline var moves: [Taken] = []

    init(key: Key) { self.key = key }
  }

  /// A selection filed by event name. (Structs, not tuples: a tuple's type is looked up at
  /// run time even in specialised code.)
  @usableFromInline
  struct Named: Sendable {
    @usableFromInline var name: String
    @usableFromInline var selection: Int32
  }

  /// A move filed by the transitions it takes.
  @usableFromInline
  struct Taken: Sendable {
    @usableFromInline var transitions: [Int]
    @usableFromInline var move: Int32
  }

  /// A history value a move writes.
  @usableFromInline
  struct HistoryWrite: Sendable {
    @usableFromInline var state: Int
    @usableFromInline var remembered: [Int]
  }

  /// Per active atomic state in document order: a count, then that many transitions (of the
  /// state, then of its ancestors, in document order) whose descriptors match the event.
  @usableFromInline typealias Selection = [Int32]

  /// A microstep's set arithmetic, done. A class, made once and never changed: a step reads
  /// it through one reference instead of copying its arrays.
  @usableFromInline
  final class Move: Sendable {
    /// History values written before any exit content runs.
    @usableFromInline let historyWrites: [HistoryWrite]
    /// States exited, in reverse document order.
    @usableFromInline let exits: [Int]
    /// Per transition, the state its content belongs to.
    @usableFromInline let owners: [Int]
    /// States entered, in document order, with their extra content and done events.
    @usableFromInline let entries: [Entry]
    /// A final child of the root is entered: the chart halts.
    @usableFromInline let halts: Bool
    /// A history state was targeted or entered (the macrostep cannot be kept as a plan).
    @usableFromInline let touchesHistory: Bool
    @usableFromInline let end: Key
    /// The node of `end`.
    @usableFromInline let endNode: Int32

    init(
      historyWrites: [HistoryWrite], exits: [Int], owners: [Int], entries: [Entry], halts: Bool, touchesHistory: Bool, end: Key,
      endNode: Int32
    ) {
      (self.historyWrites, self.exits, self.owners, self.entries) = (historyWrites, exits, owners, entries)
      (self.halts, self.touchesHistory, self.end, self.endNode) = (halts, touchesHistory, end, endNode)
    }
  }

  @usableFromInline
  struct Entry: Sendable {
    @usableFromInline var state: Int
    /// The state's initial content runs (a compound entered by default).
    @usableFromInline var defaultEntry: Bool
    /// A history default's content that runs (its transition's index), or -1.
    @usableFromInline var historyContent: Int
    /// Done events raised once the state is entered (it is final).
    @usableFromInline var done: [String]
  }

  @usableFromInline var ids: [Key: Int32] = [:]
  @usableFromInline var nodes: [Node] = []
  @usableFromInline var selections: [Selection] = []
  @usableFromInline var moves: [Move] = []

  /// The most configurations kept.
  static var maxNodes: Int { 4096 }
  /// The most moves kept.
  static var maxMoves: Int { 16_384 }

  @usableFromInline init() {}

  /// Whether more can be compiled.
  var hasRoom: Bool { nodes.count < Self.maxNodes && moves.count < Self.maxMoves }

  /// The node of `key`, made when there is room; -1 when there is not.
  mutating func node(of key: Key) -> Int32 {
    if let id = ids[key] { return id }
    guard hasRoom else { return -1 }
    let id = Int32(nodes.count)
    nodes.append(Node(key: key))
    ids[key] = id
    return id
  }
}
