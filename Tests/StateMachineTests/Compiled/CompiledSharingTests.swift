@testable import StateMachine
import StateMachineExamples
import Testing

/// The machines of one chart share what they compiled (``CompiledStorage``, copy on write): a
/// machine that meets only configurations its chart already knows never copies it. An idle
/// chart store holds such a machine, so a copy each would cost every store its own tables.
@Suite("Machines share their chart's compiled steps")
struct CompiledSharingTests {
  @Test("new machines of a chart that has learnt their configurations share its compiled steps")
  func newMachinesShare() throws {
    let chart = Radio.chart
    var teacher = ChartMachine(chart, context: NoContext())
    _ = try teacher.start()
    for event in Radio.model.alphabet + Radio.model.alphabet { _ = try teacher.send(event) }
    var first = ChartMachine(chart, context: NoContext())
    var second = ChartMachine(chart, context: NoContext())
    _ = try first.start()
    _ = try second.start()
    #expect(first.node >= 0, "the start configuration is a known node")
    #expect(first.compiledStorage === second.compiledStorage, "neither copied the shared steps to find its node")
  }

  @Test("a machine that learns something new copies the shared steps first, and the others keep theirs")
  func learningCopies() throws {
    let chart = try Chart<String, String, NoContext, String>(
      name: "pair", states: [.atomic("a", transitions: [.on("go", to: "b")]), .atomic("b", transitions: [.on("go", to: "a")])])
    var first = ChartMachine(chart, context: NoContext())
    var second = ChartMachine(chart, context: NoContext())
    _ = try first.start()
    _ = try second.start()
    let shared = second.compiledStorage
    _ = try first.send("go")
    #expect(second.compiledStorage === shared)
    #expect(second.configuration == ["a"])
    _ = try second.send("go")
    #expect(second.configuration == ["b"] && first.configuration == ["b"])
  }
}

/// A machine placed at another's configuration finds its own compiled node for it.
@Suite("Positions move between machines that compiled apart")
struct PositionMoveTests {
  @Test("a position read from one machine steps alike in another that numbered its configurations differently", arguments: 0..<20)
  func moveAcross(_ seed: Int) throws {
    let chart = try RandomChart.make(seed: UInt64(seed))
    let alphabet = RandomChart.alphabet
    var random = SplitMix64(seed: UInt64(seed) &+ 99)
    func events(_ n: Int) -> [String] { (0..<n).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] } }
    var first = ChartMachine(chart, context: 0)
    var second = ChartMachine(chart, context: 0)
    guard (try? first.start()) != nil, (try? second.start()) != nil else { return }
    // They learn different configurations in different orders.
    for event in events(30) { _ = try? first.send(event) }
    for event in events(30) { _ = try? second.send(event) }
    var reference = first
    // Placed at the other machine's configuration, its node unknown (found on the next step,
    // in this machine's own numbering), as a store puts a leased machine back.
    second.place(active: first.active, history: first.history, context: first.storedContext, halted: first.halted, node: -1)
    for event in events(40) {
      let a = Result { () throws(ChartRunError) in try reference.send(event) }
      let b = Result { () throws(ChartRunError) in try second.send(event) }
      #expect(String(describing: a.map(\.outcome)) == String(describing: b.map(\.outcome)), "seed \(seed) on \(event)")
      #expect(reference.configuration == second.configuration && reference.context == second.context, "seed \(seed) on \(event)")
      #expect(reference.historyValues == second.historyValues, "seed \(seed) on \(event)")
    }
  }
}
