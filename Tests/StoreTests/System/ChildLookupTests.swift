@testable import StateMachine
import Testing

/// A message finds its child by id: the child last messaged by comparing the id, a few children
/// (up to `Dictionary.scannedCount`) by comparing each one's id, more by hashing it. Whichever
/// way, it must reach that child and no other, also after children stopped or were replaced:
/// in a store, and in the synchronous system the checkers step.
@Suite("Systems of machines: a message finds its child by id, among few children or many")
struct ChildLookupTests {
  typealias Host = SpawnTests.Host

  struct Case: CustomTestStringConvertible, Sendable {
    let label: String
    let children: Int
    var testDescription: String { label }
  }

  static let cases = [
    Case(label: "one child", children: 1),
    Case(label: "as many as are compared one by one", children: [String: Int].scannedCount),
    Case(label: "one more: looked up by hash", children: [String: Int].scannedCount + 1),
    Case(label: "many", children: 24),
  ]

  @Test("each message reaches the child it names, from outside and from the parent's step", arguments: cases)
  func reachesItsChild(_ example: Case) async throws {
    let ids = (0..<example.children).map { "w\($0)" }
    let store = Store(try SpawnTests.host(ids: ids), context: [], clock: ManualClock(), handler: { _, _ in })
    for id in ids { store.send("spawn-\(id)") }
    // The first is stopped and started again (a new child under the old id), the second stopped.
    store.send("stop-w0")
    store.send("spawn-w0")
    if example.children > 1 { store.send("stop-w1") }
    var running = Set(ids)
    if example.children > 1 { running.remove("w1") }
    #expect(Set(store.children) == running)
    // A stopped child is no longer reached.
    if example.children > 1 { #expect(store.send("complete", to: "w1") == .rejected(.unknownTarget)) }
    // Every other child, in an order that never messages one child twice in a row, is told to
    // complete (and so ends), half from outside, half by the host's own step.
    let told = running.sorted().enumerated().filter { $0.offset % 2 == 0 }.map(\.element).reversed()
    for (n, id) in told.enumerated() {
      if n % 2 == 0 {
        #expect(store.send("complete", to: id) == .accepted)
      } else {
        store.send("tell complete to \(id)")
      }
    }
    await store.settle()
    #expect(Set(store.children) == running.subtracting(told), "the children told to complete ended, and only they")
    #expect(store.context.filter { $0 == "jobDone" }.count == told.count)
    SpawnTests.checkIndexes(store)
    await store.finish()
  }

  @Test("in the synchronous system (what checkers step), each message reaches the child it names", arguments: cases)
  func systemReachesItsChild(_ example: Case) throws {
    let ids = (0..<example.children).map { "w\($0)" }
    var machine = SystemMachine(MachineSystem(table: try SpawnTests.host(ids: ids)), context: [])
    try machine.begin()
    for id in ids { _ = try machine.step(.root("spawn-\(id)")) }
    _ = try machine.step(.root("stop-w0"))
    _ = try machine.step(.root("spawn-w0"))
    if example.children > 1 { _ = try machine.step(.root("stop-w1")) }
    var running = Set(ids)
    if example.children > 1 { running.remove("w1") }
    #expect(Set(machine.configuration.children.keys) == running)
    if example.children > 1 {
      #expect(try machine.step(.message("complete", to: "w1")) == .rejected(SendRejection.unknownTarget.description))
    }
    let told = running.sorted().enumerated().filter { $0.offset % 2 == 0 }.map(\.element).reversed()
    for (n, id) in told.enumerated() {
      if n % 2 == 0 {
        #expect(try machine.step(.message("complete", to: id)) == .handled)
      } else {
        _ = try machine.step(.root("tell complete to \(id)"))
      }
    }
    #expect(Set(machine.configuration.children.keys) == running.subtracting(told), "the children told to complete ended, and only they")
    #expect(machine.context.filter { $0 == "jobDone" }.count == told.count)
  }
}
