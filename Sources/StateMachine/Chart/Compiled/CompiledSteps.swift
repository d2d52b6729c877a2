/// ``CompiledSteps`` behind a reference: machines of one chart share one until a machine writes
/// (``ChartMachine/compiled`` copies it first unless it holds the only reference).
///
/// `@unchecked Sendable`: it is written only through a machine's `compiled` after
/// `isKnownUniquelyReferenced` (copy on write), so while it is reachable from more than one
/// machine or thread it is only read; a machine is mutated by one thread at a time.
@usableFromInline
final class CompiledStorage: @unchecked Sendable {
  /// Unchecked: the copy on write above is what keeps accesses exclusive, and dynamic checks on
  /// every read cost more than a step's own work.
  @exclusivity(unchecked) @usableFromInline var steps: CompiledSteps

  @usableFromInline
  init(_ steps: CompiledSteps) { self.steps = steps }
}

/// What the SCXML algorithm computes on every step that depends on neither the context nor the
/// event's payload, computed once per configuration and kept: for each event, the candidate
/// transitions of each active atomic state in the order the algorithm tries them; for each set
/// of transitions taken together, a short program (the content blocks to run in order, the
/// states exited and entered, the done events raised), the history it writes, and the
/// configuration reached.
///
/// A configuration here is the active states and what every history state remembers (a move
/// into a history state depends on it), as one ``Key``. Guards still run on every step, and so
/// does all content: only the set arithmetic is kept. Everything lives in flat arrays of plain
/// numbers, so a step reads it without reference counting. Filled as the machine meets
/// configurations, up to ``maxNodes`` of them, ``maxMoves`` moves and ``maxSlots`` table
/// slots; past that the machine runs the algorithm as it is.
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

  /// One instruction of a move's program.
  @usableFromInline
  struct Op: Sendable {
    @usableFromInline
    enum Kind: UInt8, Sendable {
      /// Run content `a ..< b` of the chart's flattened content, owned by state `c`.
      case run
      /// State `a` was exited (after its exit content).
      case exited
      /// The exits and the transitions' content are done: the end configuration is active.
      case activate
      /// State `a` is entered (before its entry content).
      case entered
      /// Raise the done event `doneNames[a]`.
      case done
    }
    @usableFromInline let kind: Kind
    @usableFromInline let a: Int32
    @usableFromInline let b: Int32
    @usableFromInline let c: Int32

    init(_ kind: Kind, _ a: Int, _ b: Int = 0, _ c: Int = 0) { (self.kind, self.a, self.b, self.c) = (kind, Int32(a), Int32(b), Int32(c)) }
  }

  /// A microstep's set arithmetic, done.
  @usableFromInline
  struct Move: Sendable {
    /// Its instructions: `program[programStart ..< programEnd]`.
    @usableFromInline let programStart: Int32
    @usableFromInline let programEnd: Int32
    /// History values written before any exit content runs: `historyWrites[historyStart ..< historyEnd]`.
    @usableFromInline let historyStart: Int32
    @usableFromInline let historyEnd: Int32
    /// A final child of the root is entered: the chart halts.
    @usableFromInline let halts: Bool
    /// Nothing to do but change the configuration: no content, history or done event, and
    /// the chart does not halt (see ``ChartMachine/quickStep(_:)``).
    @usableFromInline let isQuick: Bool
    /// As `isQuick` for a machine that discards outputs (see ``ChartMachine/discardsOutputs``):
    /// its content only makes outputs (effects, sends, cancels), which such a machine skips.
    @usableFromInline let isQuickDiscarding: Bool
    /// The first word of the active states it ends in (all of them when the chart has at most
    /// 64 states; the whole configuration is in ``CompiledSteps/moveEnds``). A move holds no
    /// reference: reading one copies a few words and retains nothing.
    @usableFromInline let endSmall: UInt64
    /// The node of the configuration it ends in, or -1 when there was no room for it.
    @usableFromInline let endNode: Int32
  }

  /// A selection filed by event name (events without an ordinal: internal and `String` ones).
  @usableFromInline
  struct Named: Sendable {
    @usableFromInline var name: String
    @usableFromInline var selection: Int32
  }

  /// A move of several transitions, filed by them: `transitionSets[start ..< start + count]`.
  @usableFromInline
  struct Taken: Sendable {
    @usableFromInline var start: Int32
    @usableFromInline var count: Int32
    @usableFromInline var move: Int32
  }

  /// A history value a move writes.
  @usableFromInline
  struct HistoryWrite: Sendable {
    @usableFromInline var state: Int
    @usableFromInline var remembered: [Int]
  }

  /// Event names by ordinal (below 64), as the chart's event naming made them: shared, as
  /// the rest is, so a new machine does not name its events again.
  @usableFromInline var eventNames = [String?](repeating: nil, count: 64)
  @usableFromInline var ids: [Key: Int32] = [:]
  @usableFromInline var keys: [Key] = []
  /// `node << 6 | ordinal` → selection, or -1 when not compiled yet.
  @usableFromInline var byOrdinal: [Int32] = []
  /// `node << 6 | ordinal` → what a quick step of that event does there: the node it lands on
  /// (≥ 0), ``unhandled``, ``notQuick``, or ``unknown`` (see ``ChartMachine/quickStep(_:)``).
  @usableFromInline var quick: [Int32] = []
  /// As ``quick``, for machines that discard outputs (whose quick steps are more); grown only
  /// when such a machine learns a slot (a chart that no checker walks never grows it), so it
  /// may be shorter than ``quick``: a slot past its end is not known yet.
  @usableFromInline var quickDiscarding: [Int32] = []
  /// `node << 6 | ordinal` → the move of a quick step (for a tracking machine's exits).
  @usableFromInline var quickMoves: [Int32] = []
  /// Per node, its active states in one word (charts of up to 64 states).
  @usableFromInline var smallActive: [UInt64] = []
  /// Per node, its eventless selection, or -1.
  @usableFromInline var eventless: [Int32] = []
  /// Per node, its selections for events without an ordinal.
  @usableFromInline var byName: [[Named]] = []
  /// Selection `s` is `candidates[selectionStarts[s] ..< selectionStarts[s + 1]]`: per active
  /// atomic state in document order, a count, then that many transitions (of the state, then
  /// of its ancestors, in document order) whose descriptors match the event.
  @usableFromInline var selectionStarts: [Int32] = [0]
  @usableFromInline var candidates: [Int32] = []
  /// Per selection: its one candidate when it has exactly one and that has no guard, or
  /// ``noCandidate`` when it has none, else -1.
  @usableFromInline var sole: [Int32] = []
  /// Per node, where its single-transition moves start in `singles`, or -1.
  @usableFromInline var singleBase: [Int32] = []
  /// `singleBase[node] + transition` → the move of that transition alone, or -1.
  @usableFromInline var singles: [Int32] = []
  /// Per node, its moves of several transitions.
  @usableFromInline var takens: [[Taken]] = []
  @usableFromInline var transitionSets: [Int32] = []
  @usableFromInline var moves: [Move] = []
  /// Per move, the configuration and history it ends in.
  @usableFromInline var moveEnds: [Key] = []
  @usableFromInline var program: [Op] = []
  @usableFromInline var historyWrites: [HistoryWrite] = []
  @usableFromInline var doneNames: [String] = []

  /// The most configurations kept.
  static var maxNodes: Int { 4096 }
  /// The most moves kept.
  static var maxMoves: Int { 16_384 }
  /// The most slots the by-ordinal and single-move tables may hold (4 bytes each).
  static var maxSlots: Int { 1 << 20 }

  @usableFromInline init() {}

  /// How much is compiled: selections, moves, and quick-lane slots learnt.
  @usableFromInline var size: Int { selectionStarts.count + moves.count + learntSlots }
  /// How many quick-lane slots (either lane's) have been learnt.
  @usableFromInline var learntSlots = 0
  /// The start's move (the chart's initial transition from the empty configuration), or -1
  /// until a machine has compiled it.
  @usableFromInline var startMove: Int32 = -1

  /// Whether more can be compiled.
  var hasRoom: Bool {
    keys.count < Self.maxNodes && moves.count < Self.maxMoves && 3 * byOrdinal.count + singles.count < Self.maxSlots
  }

  /// The node of `key`, made when there is room; -1 when there is not.
  mutating func node(of key: Key) -> Int32 {
    if let id = ids[key] { return id }
    guard hasRoom else { return -1 }
    let id = Int32(keys.count)
    keys.append(key)
    byOrdinal += repeatElement(-1, count: 64)
    quick += repeatElement(Self.unknown, count: 64)
    quickMoves += repeatElement(-1, count: 64)
    smallActive.append(key.active.small)
    eventless.append(-1)
    byName.append([])
    singleBase.append(-1)
    takens.append([])
    ids[key] = id
    return id
  }

  /// The selection filed for `name` in node `n`, if one is.
  @usableFromInline
  func named(_ n: Int32, _ name: String) -> Int32? {
    for entry in byName[Int(n)] where entry.name == name { return entry.selection }
    return nil
  }

  /// In ``quick``: not known yet.
  @usableFromInline static var unknown: Int32 { -1 }
  /// In ``quick``: no transition matches the event there.
  @usableFromInline static var unhandled: Int32 { -2 }
  /// In ``quick``: the event's step there needs the whole macrostep.
  @usableFromInline static var notQuick: Int32 { -3 }

  /// A selection without candidates, in ``sole``.
  @usableFromInline static var noCandidate: Int32 { -2 }

  /// Files `list` as a new selection and returns its index; `guarded` tells which transitions
  /// have a guard.
  mutating func addSelection(_ list: [Int32], guarded: (Int) -> Bool) -> Int32 {
    sole.append(list.isEmpty ? Self.noCandidate : Self.sole(of: list, guarded: guarded))
    candidates += list
    selectionStarts.append(Int32(candidates.count))
    return Int32(selectionStarts.count - 2)
  }

  /// The one transition selection `list` always enables: every active atomic state's first
  /// candidate, when each has no guard and they are all one transition (of a common ancestor,
  /// say); -1 when the guards decide or several transitions are taken.
  static func sole(of list: [Int32], guarded: (Int) -> Bool) -> Int32 {
    var i = 0
    var found: Int32 = -1
    while i < list.count {
      let first = list[i + 1]
      guard !guarded(Int(first)), found < 0 || found == first else { return -1 }
      found = first
      i += 1 + Int(list[i])
    }
    return found
  }

  /// The move of several transitions `enabled` from node `n`, if compiled.
  @usableFromInline
  func move(_ n: Int32, taking enabled: [Int]) -> Int32? {
    for entry in takens[Int(n)] where Int(entry.count) == enabled.count {
      let start = Int(entry.start)
      if enabled.indices.allSatisfy({ Int(transitionSets[start + $0]) == enabled[$0] }) { return entry.move }
    }
    return nil
  }

  /// Files `move` as the move of `enabled` from node `n` (a chart of `transitions` transitions).
  mutating func file(_ move: Move, ending end: Key, from n: Int32, taking enabled: [Int], transitions: Int) -> Int32 {
    let index = Int32(moves.count)
    moves.append(move)
    moveEnds.append(end)
    if enabled.count == 1 {
      if singleBase[Int(n)] < 0 {
        singleBase[Int(n)] = Int32(singles.count)
        singles += repeatElement(-1, count: transitions)
      }
      singles[Int(singleBase[Int(n)]) + enabled[0]] = index
    } else {
      takens[Int(n)].append(Taken(start: Int32(transitionSets.count), count: Int32(enabled.count), move: index))
      transitionSets += enabled.map { Int32($0) }
    }
    return index
  }

  /// The index of done event `name` in `doneNames`.
  mutating func doneName(_ name: String) -> Int {
    if let i = doneNames.firstIndex(of: name) { return i }
    doneNames.append(name)
    return doneNames.count - 1
  }
}
