import Foundation
import StateMachine
import Testing

@Suite("Commands in logs: named fields, durations in seconds, earlier logs still read")
struct CommandCodingTests {
  typealias C = Command<String, String>

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let command: C
    let json: String
    var testDescription: String { label }
  }

  /// A child machine: a log keeps its name.
  static let child = ChildMachine<String>(SystemMachines.job, context: [])

  static func encode(_ command: C) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(command), as: UTF8.self)
  }

  @Test("each command encodes with named fields and seconds, and decodes back", arguments: [
    Case(label: "send after 1.5 s", command: .send("retryNow", after: .milliseconds(1500), id: "backoff", scope: .state),
         json: #"{"send":{"after":1.5,"event":"retryNow","id":"backoff","scope":"state"}}"#),
    Case(label: "perform", command: .perform("fetch", id: "fetch"), json: #"{"perform":{"id":"fetch","work":"fetch"}}"#),
    Case(label: "every second", command: .every(.seconds(1), send: "tick", id: "ticker"),
         json: #"{"every":{"event":"tick","id":"ticker","interval":1}}"#),
    Case(label: "cancel", command: .cancel("ticker"), json: #"{"cancel":{"id":"ticker"}}"#),
    Case(label: "invoke in state", command: .invoke(Self.child, id: "file-1"),
         json: #"{"invoke":{"id":"file-1","machine":"job","scope":"state"}}"#),
    Case(label: "spawn", command: .invoke(Self.child, id: "file-2", scope: .global), json: #"{"invoke":{"id":"file-2","machine":"job"}}"#),
    Case(label: "message", command: .message(MachineMessage("pause", to: "upload/file-1")),
         json: #"{"message":{"message":"pause","to":"upload\/file-1"}}"#),
    Case(label: "message after 5 s", command: .message(MachineMessage("ping", to: "file-1", after: .seconds(5), id: "ping")),
         json: #"{"message":{"after":5,"id":"ping","message":"ping","to":"file-1"}}"#),
  ])
  func roundTrip(_ c: Case) throws {
    #expect(try Self.encode(c.command) == c.json)
    #expect(try JSONDecoder().decode(C.self, from: Data(c.json.utf8)) == c.command)
  }

  /// How Swift's own `Codable` writes a duration: the two halves of its attoseconds.
  static func swiftDuration(_ d: Duration) -> String { String(decoding: try! JSONEncoder().encode(d), as: UTF8.self) }

  @Test("what earlier versions wrote (_0, Swift's duration encoding, {\"name\":...}) still decodes", arguments: [
    Case(label: "send", command: .send("retryNow", after: .seconds(30), id: "backoff", scope: .state),
         json: #"{"send":{"_0":"retryNow","after":\#(swiftDuration(.seconds(30))),"id":{"name":"backoff"},"scope":"state"}}"#),
    Case(label: "perform", command: .perform("fetch"), json: #"{"perform":{"_0":"fetch","scope":"global"}}"#),
    Case(label: "every", command: .every(.milliseconds(500), send: "tick", id: "ticker"),
         json: #"{"every":{"_0":\#(swiftDuration(.milliseconds(500))),"send":"tick","id":{"name":"ticker"},"scope":"global"}}"#),
    Case(label: "cancel", command: .cancel("ticker"), json: #"{"cancel":{"_0":{"name":"ticker"}}}"#),
  ])
  func legacy(_ c: Case) throws {
    #expect(Self.swiftDuration(.seconds(30)) == "[1,11553255926290448384]", "the encoding the issue quotes")
    #expect(try JSONDecoder().decode(C.self, from: Data(c.json.utf8)) == c.command)
  }

  @Test("a duration that is not one is refused", arguments: [#"{"send":{"event":"x","after":-1}}"#, #"{"send":{"event":"x","after":"soon"}}"#])
  func badDuration(_ json: String) {
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(C.self, from: Data(json.utf8)) }
  }
}

@Suite("Child machines read back from a log")
struct LoggedChildTests {
  @Test("a child read back from a log fails to start, saying why; a logged message cannot be delivered")
  func loggedChildCannotRun() async throws {
    let json = #"[{"invoke":{"id":"job","machine":"job","scope":"state"}},{"message":{"message":"pause","to":"job"}}]"#
    let commands = try JSONDecoder().decode([Command<String, Never>].self, from: Data(json.utf8))
    let ledger = SystemLedger()
    let table = try TransitionTable<String, String, Int, Command<String, Never>>(
      name: "host", initial: "idle", rows: [.stayInAny(on: "go", effects: commands[0], commands[1])], policy: .ignore)
    let store = Store(table, context: 0, clock: ManualClock(), handler: { _, _ in }, inspector: { ledger.record($0) })
    store.send("go")
    await store.settle()
    #expect(ledger.all == [
      "start invoke job as job (in state)", "failed invoke job as job (in state): the child machine job was read from a log and cannot run",
      "start send pause to job", "failed send pause to job: \(SendRejection.wrongType)",
    ])
    await store.finish()
  }
}
