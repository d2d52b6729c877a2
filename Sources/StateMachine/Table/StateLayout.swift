/// Dense indices for the state cases of a table, with their entry and exit effects.
@usableFromInline
struct StateLayout<State: Discriminated, Effect: Sendable>: Sendable {
  /// Index → case.
  var cases: [State.Discriminant] = []
  /// Case → index.
  @usableFromInline var index: [State.Discriminant: Int] = [:]
  @usableFromInline var entry: [[Effect]] = []
  var exit: [[Effect]] = []
  var isFinal: [Bool] = []
  /// The states a row may name: the declared ones when the table declares any, otherwise all.
  var known: Set<State.Discriminant>
  /// Cases declared more than once.
  var duplicates: [State.Discriminant] = []
  let isEnumerable: Bool

  init<Context, Event>(
    initial: State.Discriminant?,
    declared: [StateDeclaration<State, Effect>],
    rows: [Row<State, Event, Context, Effect>]
  ) {
    let all = allCasesIfEnumerable(State.Discriminant.self)
    isEnumerable = all != nil
    known = []
    for case_ in all ?? [] { add(case_) }
    if let initial { add(initial) }
    var seen = Set<State.Discriminant>()
    for declaration in declared {
      let i = add(declaration.state)
      if !seen.insert(declaration.state).inserted { duplicates.append(declaration.state) }
      entry[i] += declaration.entry
      exit[i] += declaration.exit
      isFinal[i] = isFinal[i] || declaration.isFinal
    }
    for row in rows {
      for source in row.sourceStates { add(source) }
      if let target = row.targetCase { add(target) }
    }
    known = declared.isEmpty ? Set(cases) : seen
  }

  @discardableResult
  private mutating func add(_ case_: State.Discriminant) -> Int {
    if let i = index[case_] { return i }
    index[case_] = cases.count
    cases.append(case_)
    entry.append([])
    exit.append([])
    isFinal.append(false)
    return cases.count - 1
  }
}

/// `allCases` of `type` when it is `CaseIterable`. Runs when a table is built, never in a step.
func allCasesIfEnumerable<T>(_ type: T.Type) -> [T]? {
  guard let iterable = type as? any CaseIterable.Type else { return nil }
  func cases<C: CaseIterable>(_ c: C.Type) -> [Any] { Array(c.allCases) }
  return cases(iterable) as? [T]
}
