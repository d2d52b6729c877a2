import FSMCommand
import Foundation
import StateMachine
import StateMachineTesting
import Synchronization
import Testing

/// A user's own machine, in an `fsm` of their own (the README's "Your own fsm").
enum Door {
  enum State: String, Hashable, Sendable, Codable, Discriminated { case closed, open, locked }
  enum Event: String, Hashable, Sendable, Codable, CaseIterable, Discriminated { case open, close, lock, unlock }
  typealias Effect = Command<Event, Never>

  static let table = try! TransitionTable<State, Event, NoContext, Effect>(
    name: "door", initial: .closed,
    rows: [
      .transition(from: .closed, on: .open, to: .open),
      .transition(from: .open, on: .close, to: .closed),
      .transition(from: .closed, on: .lock, to: .locked),
      .transition(from: .locked, on: .unlock, to: .closed),
    ],
    policy: .ignore)

  static let model = MachineModel(table: table, context: NoContext(), alphabet: Event.allCases, invariants: [])

  static let demo = MachineDemo(
    name: "door", summary: "open, close, lock, and a push while locked",
    script: [.send(.open), .send(.close), .send(.lock), .send(.open), .send(.unlock)],
    makeStore: { clock, inspector in Store(table, context: NoContext(), clock: clock, handler: { _, _ in }, inspector: inspector) },
    show: { state, _ in state == .locked ? "🔒" : "door \(state)" })
}

@Suite("An fsm over your own catalog")
struct OwnCatalogTests {
  // The README's catalog, as written there.
  let catalog = Catalog(
      machines: [MachineDescription(Door.table, summary: "a door with a lock")],
      demos: [Door.demo],
      models: [.table(Door.model)])

  @Test("list, show, check and explore take the catalog's machines by name; the shipped ones are not there")
  func commands() {
    #expect(FSM.run(["list"], catalog: catalog).output == "door  a door with a lock\n")
    #expect(FSM.run(["show", "door", "--format", "mermaid"], catalog: catalog).output.contains("closed --> locked : lock"))
    #expect(FSM.run(["check", "door"], catalog: catalog).code == 0)
    let explored = FSM.run(["explore", "door"], catalog: catalog)
    #expect(explored.code == 0, "\(explored.output)\(explored.errorOutput)")
    #expect(explored.output.contains("  locked: lock"), "\(explored.output)")
    #expect(FSM.run(["show", "login"], catalog: catalog).errorOutput.contains("unknown machine 'login'; expected one of: door"))
  }

  @Test("explore on a listed machine without a model says so, naming those that have one")
  func exploreWithoutModel() {
    let listedOnly = Catalog(machines: [MachineDescription(Door.table, summary: "a door with a lock")])
    let result = FSM.run(["explore", "door"], catalog: listedOnly)
    #expect(result.code == 2)
    #expect(result.errorOutput == "error: machine 'door' has no model to explore (a catalog Model gives its alphabet and invariants); no machine of the catalog has one\n")
    #expect(FSM.run(["explore", "window"], catalog: catalog).errorOutput.hasPrefix("error: unknown machine 'window'; expected one of: door\n"))
  }

  @Test("demo plays the catalog's demo; its recorded session replays")
  func demoAndReplay() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-door-\(UInt32.random(in: 0...UInt32.max)).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let lines = Mutex<[String]>([])
    let result = await FSM.run(["demo", "door", "--speed", "0", "--record", path], catalog: catalog) { line in lines.withLock { $0.append(line) } }
    #expect(result.code == 0, "\(result.errorOutput)")
    #expect(lines.withLock { $0 }.contains { $0.contains("open") && $0.contains("locked → locked (ignored)") })
    let replay = FSM.run(["replay", "door", path], catalog: catalog)
    #expect(replay.output.hasSuffix("replayed 5 entries: identical\n"), "\(replay.output)\(replay.errorOutput)")
  }
}

/// The README's `main.swift` (compiled here, never run: it exits the process).
func ownFSMMain(_ catalog: Catalog) async {
  exit(await FSM.main(Array(CommandLine.arguments.dropFirst()), catalog: catalog))
}
