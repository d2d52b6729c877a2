import Testing

@testable import StateMachine

/// The dense step takes an event's usual target (row 0 of the dense array) as the next
/// position when the slot agrees with it. Each case gives one event's column a shape; the same
/// table over one-byte tags (dense dispatch, which reads row 0) and over strings (the scan,
/// which does not) must do the same thing after every event of a long random walk, and row 0
/// must hold the usual target exactly when every inline row of the column goes to one state.
@Suite("Usual targets of the dense step")
struct UsualTargetTests {
  enum S: Hashable, Sendable, CaseIterable, Discriminated { case a, b, c, d }
  enum E: Hashable, Sendable, CaseIterable, Discriminated { case probe, next, other }
  struct Counter: Equatable, Sendable { var n = 0 }

  /// One row of the probed column: from a state, what it does.
  enum Cell: Sendable {
    case to(S)
    case toWithEffects(S)
    case guarded(S, holds: Bool)
    case updating(S)
    case stay
    case ignore
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let cells: [S: Cell]
    /// The state row 0 must name for `probe`, or `nil` for none.
    let usual: S?
  }

  static let cases: [Case] = [
    Case(testDescription: "every state goes to one target", cells: [.a: .to(.c), .b: .to(.c), .c: .to(.c), .d: .to(.c)], usual: .c),
    Case(testDescription: "targets differ by state", cells: [.a: .to(.b), .b: .to(.c), .c: .to(.b)], usual: nil),
    Case(testDescription: "one target, some states do not handle it", cells: [.a: .to(.d), .c: .to(.d)], usual: .d),
    Case(
      testDescription: "one inline target, a failing guard to another state",
      cells: [.a: .to(.b), .b: .guarded(.c, holds: false), .c: .to(.b)], usual: .b),
    Case(
      testDescription: "one inline target, a holding guard to another state",
      cells: [.a: .to(.b), .b: .guarded(.d, holds: true), .c: .to(.b)], usual: .b),
    Case(testDescription: "a guarded row to the usual target", cells: [.a: .to(.c), .b: .guarded(.c, holds: true)], usual: .c),
    Case(testDescription: "an update row beside inline rows", cells: [.a: .to(.a), .b: .updating(.d), .d: .to(.a)], usual: .a),
    Case(testDescription: "stay and ignore beside inline rows", cells: [.a: .to(.b), .b: .stay, .c: .ignore, .d: .to(.b)], usual: .b),
    Case(testDescription: "no inline row at all", cells: [.a: .stay, .b: .guarded(.a, holds: true), .c: .toWithEffects(.d)], usual: nil),
  ]

  static func table<St: Discriminated, Ev: Discriminated>(
    _ c: Case, state: (S) -> St, event: (E) -> Ev
  ) throws -> TransitionTable<St, Ev, Counter, Int> where St.Discriminant == St, Ev.Discriminant == Ev {
    typealias R = Row<St, Ev, Counter, Int>
    var rows: [R] = []
    for from in S.allCases {
      guard let cell = c.cells[from] else { continue }
      let (f, p) = (state(from), event(.probe))
      switch cell {
      case .to(let t): rows.append(.transition(from: f, on: p, to: state(t), effects: 1))
      case .toWithEffects(let t): rows.append(.transition(from: f, on: p, to: state(t), effects: 2, 3))
      case .guarded(let t, let holds): rows.append(R.transition(from: f, on: p, to: state(t)).when(Guard("g") { _, _ in holds }))
      case .updating(let t): rows.append(R.transition(from: f, on: p, to: state(t)).update { c, _ in c.n += 1 })
      case .stay: rows.append(.stay(in: f, on: p, effects: 4))
      case .ignore: rows.append(.ignore(in: f, on: p))
      }
    }
    // `next` walks every state, so the walk probes the column from each of them.
    for (from, to) in zip(S.allCases, S.allCases.dropFirst() + [.a]) {
      rows.append(.transition(from: state(from), on: event(.next), to: state(to)))
    }
    rows.append(.fromAny(on: event(.other), to: state(.a), effects: 9))
    return try TransitionTable(initial: state(.a), rows: rows, validation: .lenient)
  }

  /// An outcome with its states spelled the same for enum cases and for strings.
  static func summary<St>(_ outcome: StepOutcome<St, Int>) -> String {
    switch outcome {
    case .transitioned(let from, let to, let effects): "\(String(describing: from)) -> \(String(describing: to)) / \(Array(effects))"
    case .stayed(let effects): "stayed / \(Array(effects))"
    case .ignored: "ignored"
    case .rejected(let reason): "rejected \(reason)"
    }
  }

  @Test("row 0 names the usual target, and the dense step agrees with the scan", arguments: cases)
  func agrees(_ c: Case) throws {
    let dense = try Self.table(c, state: { $0 }, event: { $0 })
    let scan = try Self.table(c, state: { "\($0)" }, event: { "\($0)" })
    #expect(dense.storage.span > 0)
    #expect(scan.storage.span == 0)

    let ordinal = Int(unsafeBitCast(E.probe, to: UInt8.self))
    let usual = dense.storage.dense[ordinal].target
    #expect(usual == (c.usual.flatMap { dense.position(of: $0) }.map(Int32.init) ?? 1))

    var (d, s) = (Machine(dense, context: Counter()), Machine(scan, context: Counter()))
    var random = SplitMix64(seed: 7)
    for i in 0..<3_000 {
      let event = E.allCases[Int(random.next() % 3)]
      let (a, b) = (d.send(event), s.send("\(event)"))
      try #require(Self.summary(a) == Self.summary(b), "event \(i): \(event)")
      try #require("\(d.state)" == s.state && d.context == s.context, "event \(i): \(event)")
    }
  }
}
