import Foundation
@_spi(Reference) @testable import StateMachine
import StateMachineExamples
import Testing

/// The compiled steps (``CompiledSteps``) against the reference algorithm, side by side on
/// random events: the same outcome, outputs (with their owners and the states exited, as a
/// store sees them), configuration, history, context and halting after every macrostep.
@Suite("Compiled steps do what the algorithm does")
struct CompiledStepTests {
  /// Events per chart: `FSM_COMPILED_EVENTS`, 300 by default (the bench runs a long version).
  static let events = ProcessInfo.processInfo.environment["FSM_COMPILED_EVENTS"].flatMap(Int.init) ?? 300

  /// Steps `chart` compiled and by the algorithm alone on `events` random events of
  /// `alphabet`; returns how many steps it compared.
  @discardableResult
  static func compare<ID, Event, Context: Equatable, Effect>(
    _ chart: Chart<ID, Event, Context, Effect>, context: Context, alphabet: [Event], seed: UInt64, label: String,
    tracking: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Int {
    var compiled = ChartMachine(chart, context: context)
    var reference = ChartMachine(chart, context: context)
    reference.usesCompiledSteps = false
    (compiled.tracksOwners, reference.tracksOwners) = (tracking, tracking)
    var random = SplitMix64(seed: seed)
    var compared = 0
    func same(_ a: Result<ChartStep<Event, Effect>, ChartRunError>, _ b: Result<ChartStep<Event, Effect>, ChartRunError>, _ what: String) {
      switch (a, b) {
      case (.success(let x), .success(let y)):
        #expect(x.outcome == y.outcome, "\(label) \(what): outcome", sourceLocation: sourceLocation)
        #expect(String(describing: x.outputs) == String(describing: y.outputs), "\(label) \(what): outputs", sourceLocation: sourceLocation)
        #expect(
          compiled.lastOwners == reference.lastOwners && compiled.lastExits == reference.lastExits, "\(label) \(what): owners and exits",
          sourceLocation: sourceLocation)
        #expect(x.microsteps == y.microsteps, "\(label) \(what): microsteps", sourceLocation: sourceLocation)
      default:
        #expect(String(describing: a) == String(describing: b), "\(label) \(what)", sourceLocation: sourceLocation)
      }
      #expect(compiled.configuration == reference.configuration, "\(label) \(what): configuration", sourceLocation: sourceLocation)
      #expect(compiled.historyValues == reference.historyValues, "\(label) \(what): history", sourceLocation: sourceLocation)
      #expect(compiled.context == reference.context, "\(label) \(what): context", sourceLocation: sourceLocation)
      #expect(compiled.isHalted == reference.isHalted, "\(label) \(what): halted", sourceLocation: sourceLocation)
      compared += 1
    }
    same(Result { () throws(ChartRunError) in try compiled.start() }, Result { () throws(ChartRunError) in try reference.start() }, "start")
    for _ in 0..<Self.events {
      let event = alphabet[Int(random.next() % UInt64(alphabet.count))]
      if compiled.isHalted, reference.isHalted, random.next() % 4 == 0 {
        // Start again now and then, so a chart that halts goes on being compared.
        compiled = ChartMachine(chart, context: context)
        reference = ChartMachine(chart, context: context)
        reference.usesCompiledSteps = false
        (compiled.tracksOwners, reference.tracksOwners) = (tracking, tracking)
        same(Result { () throws(ChartRunError) in try compiled.start() }, Result { () throws(ChartRunError) in try reference.start() }, "restart")
      }
      same(
        Result { () throws(ChartRunError) in try compiled.send(event) }, Result { () throws(ChartRunError) in try reference.send(event) },
        "on \(event)")
    }
    return compared
  }

  @Test("every conformance chart", .enabled(if: SCXMLTests.scionFile("index.tsv") != nil, "needs ../shared/scion"))
  func conformanceCharts() throws {
    let folder = try #require(SCXMLTests.scionFile(""))
    for (n, file) in ChartSpecTests.scionCharts().enumerated() {
      let chart = try SCXMLDocument.load(contentsOf: folder + "/" + file)
      Self.compare(chart, context: NoContext(), alphabet: QuickStepTests.alphabet(chart), seed: UInt64(n), label: file)
    }
  }

  @Test("the shipped charts on their models' alphabets (guards and updates on the context)")
  func shippedCharts() {
    Self.compare(Loader.chart, context: Loader.model.context, alphabet: Loader.model.alphabet, seed: 1, label: "loader")
    Self.compare(PhoneLogin.chart, context: PhoneLogin.model.context, alphabet: PhoneLogin.model.alphabet, seed: 2, label: "phone-login")
    Self.compare(Radio.chart, context: NoContext(), alphabet: Radio.model.alphabet, seed: 3, label: "radio")
  }

  @Test("random charts: compound, parallel, history, eventless, raised events and guards on the context", arguments: 0..<40)
  func randomCharts(_ seed: Int) throws {
    let chart = try RandomChart.make(seed: UInt64(seed))
    Self.compare(chart, context: 0, alphabet: RandomChart.alphabet, seed: UInt64(seed), label: "random chart \(seed)", tracking: seed % 2 == 0)
  }

  @Test("random charts with numbered events (the quick and direct lanes)", arguments: 0..<40)
  func randomNumberedCharts(_ seed: Int) throws {
    let chart = try RandomChart.make(seed: UInt64(seed), ordinals: true)
    Self.compare(chart, context: 0, alphabet: RandomChart.alphabet, seed: UInt64(seed) &+ 77, label: "random numbered chart \(seed)", tracking: seed % 2 == 1)
  }
}

/// Random charts over `String` ids and events with an `Int` context: nested compound and
/// parallel states, shallow and deep history, finals, eventless transitions, raised events,
/// internal transitions, `In()` guards and guards and updates on the context.
enum RandomChart {
  typealias C = Chart<String, String, Int, String>
  typealias S = ChartState<String, String, Int, String>
  typealias T = ChartTransition<String, String, Int, String>
  typealias A = ChartAction<String, Int, String>

  static let alphabet = ["a", "b", "c", "d", "e", "f", "done.state.x", "unknown"]

  /// The first valid chart of the attempts from `seed` (random transitions may break the
  /// chart's rules: an internal transition from an atomic state, a target in no state...).
  static func make(seed: UInt64, ordinals: Bool = false) throws -> C { try make(seed: seed, ordinals: ordinals) { $0 } }

  /// The same chart, with its effects made by `effect` from their names (a store's charts emit
  /// ``Command`` values).
  /// With `ordinals`, its events are numbered by their place in ``alphabet`` (as a
  /// ``Discriminated`` event's cases are), so the machine takes its compiled lanes.
  static func make<Effect: Sendable>(
    seed: UInt64, ordinals: Bool = false, effect: @escaping @Sendable (String) -> Effect
  ) throws -> Chart<String, String, Int, Effect> {
    var last: (any Error)?
    for n in 0..<200 {
      do { return try attempt(seed: seed &* 1_000 &+ UInt64(n), ordinals: ordinals, effect: effect) } catch { last = error }
    }
    throw last!
  }

  static func attempt<Effect: Sendable>(
    seed: UInt64, ordinals: Bool, effect: @escaping @Sendable (String) -> Effect
  ) throws -> Chart<String, String, Int, Effect> {
    typealias C = Chart<String, String, Int, Effect>
    typealias S = ChartState<String, String, Int, Effect>
    typealias T = ChartTransition<String, String, Int, Effect>
    typealias A = ChartAction<String, Int, Effect>
    var random = SplitMix64(seed: seed &* 7919 &+ 1)
    var ids: [String] = []
    var atomics: [String] = []
    func pick(_ n: Int) -> Int { Int(random.next() % UInt64(max(1, n))) }
    func tree(_ depth: Int, _ prefix: String) -> [S] {
      let count = 1 + pick(depth == 0 ? 3 : 3)
      return (0..<count).map { i in
        let id = "\(prefix)\(i)"
        ids.append(id)
        let roll = depth >= 3 ? 0 : pick(6)
        switch roll {
        case 3:
          return .parallel(id, regions: (0..<2).map { r in
            let region = "\(id)r\(r)"
            ids.append(region)
            return .compound(region, children: tree(depth + 1, region + "."))
          })
        case 4, 5:
          var children = tree(depth + 1, id + ".")
          if pick(2) == 0 { children.append(.history(id + ".h", deep: pick(2) == 0, default: [])) }
          if pick(3) == 0 { children.append(.final(id + ".f")) }
          return .compound(id, children: children)
        default:
          atomics.append(id)
          return .atomic(id)
        }
      }
    }
    var states = tree(0, "s")
    if random.next() % 4 == 0 { states.append(.final("end")) ; ids.append("end") }
    // Transitions, added to states chosen at random.
    let targets = ids
    var extra: [String: [T]] = [:]
    for _ in 0..<(4 + pick(12)) {
      let source = ids[pick(ids.count)]
      let event = alphabet[pick(6)]
      let target = targets[pick(targets.count)]
      let roll = pick(10)
      let guardCondition: ChartGuard<String, String, Int>? =
        switch roll {
        case 0: ChartGuard("even") { n, _ in n % 2 == 0 }
        case 1: .inState(ids[pick(ids.count)])
        case 2: ChartGuard("small") { n, _ in n < 5 }
        default: nil
        }
      var actions: [A] = []
      if pick(2) == 0 { actions.append(.update("count") { n, _ in n += 1 }) }
      if pick(3) == 0 { actions.append(.effect(effect("fx \(source)"))) }
      // Only events a-d raise, and only e or f: raised events never raise again.
      if pick(4) == 0, event < "e" { actions.append(.raise(["e", "f"][pick(2)])) }
      if pick(6) == 0 { actions.append(.make("seen") { n, e in effect("seen \(n) \(e ?? "-")") }) }
      let transition: T =
        switch pick(8) {
        // Eventless: taken when n ≡ 1 (mod 3), and leaves n ≡ 2 (its update comes last; only
        // exit content runs before it, entry content changes no context), so none loops.
        case 0: T(events: [], guard: ChartGuard("bounded") { n, _ in n % 3 == 1 }, targets: [target], actions: actions + [.update("step") { n, _ in n = n / 3 * 3 + 2 }])
        case 1: T(events: [event], guard: guardCondition, targets: [], actions: actions)
        case 2: T(events: [event], guard: guardCondition, targets: [target], isInternal: true, actions: actions)
        default: T(events: [event], guard: guardCondition, targets: [target], actions: actions)
        }
      extra[source, default: []].append(transition)
    }
    func attach(_ state: S) -> S {
      var state = state
      state.transitions += extra[state.id] ?? []
      if pick(4) == 0 { state.onEntry.append(.effect(effect("enter \(state.id)"))) }
      if pick(5) == 0 { state.onExit.append(.update("leave") { n, _ in n += 2 }) }
      state.children = state.children.map(attach)
      return state
    }
    guard ordinals else { return try C(name: "random-\(seed)", states: states.map(attach)) }
    return try C(
      name: "random-\(seed)", initial: nil, states: states.map(attach), initialActions: [], eventName: { $0 },
      eventOrdinal: { alphabet.firstIndex(of: $0) })
  }
}
