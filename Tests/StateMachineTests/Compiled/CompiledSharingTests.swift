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
