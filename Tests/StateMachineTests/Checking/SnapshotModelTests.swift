import Foundation
import StateMachine
import Testing

/// Snapshot and restore are part of the one machine model (``MachineInstance``): a tool
/// written over the model saves a machine of any kind and goes on from the saved place, and a
/// snapshot that does not fit the definition is refused with the kind's typed error.
@Suite("One machine model: snapshot and restore for every kind")
struct SnapshotModelTests {
  typealias Light = OneModelTests.Light
  typealias Press = OneModelTests.Press

  /// The lamp of the model's other tests: it counts its toggles and breaks for good when
  /// smashed while on.
  static func table() throws -> TransitionTable<Light, Press, Int, Never> { try OneModelTests.table() }

  /// The same lamp as a chart, inside a compound state with a history, so a chart's snapshot
  /// carries history values too.
  static func chart() throws -> Chart<String, String, Int, Never> {
    try Chart(name: "lamp", states: [
      .compound("working", children: [
        .atomic("off", transitions: [.on("toggle", to: "on", actions: [.update { count, _ in count += 1 }])]),
        .atomic("on", transitions: [.on("toggle", to: "off", actions: [.update { count, _ in count += 1 }]), .on("smash", to: "broken")]),
        .history("h", default: ["off"]),
      ], transitions: [.on("pause", to: "paused")]),
      .atomic("paused", transitions: [.on("resume", to: "h")]),
      .atomic("broken"),
    ])
  }

  /// Steps `before`, saves the machine as JSON, restores a new machine from it and steps
  /// `after` on both: what each reads at the end, as text.
  static func saveAndGoOn<D: MachineDefinition>(
    _ definition: D, context: D.Context, before: [D.Event], after: [D.Event]
  ) throws -> (straight: String, restored: String) where D.Instance.Snapshot: Codable {
    var machine = D.Instance(definition, context: context)
    try machine.begin()
    for event in before { _ = try machine.step(event) }
    let data = try JSONEncoder().encode(machine.snapshot)
    var restored = try D.Instance(definition, restoring: try JSONDecoder().decode(D.Instance.Snapshot.self, from: data))
    for event in after {
      _ = try machine.step(event)
      _ = try restored.step(event)
    }
    return ("\(machine.configuration) \(machine.context)", "\(restored.configuration) \(restored.context)")
  }

  /// Restores `snapshot` into `definition`: the error's text, or `nil` when it fits.
  static func refusal<D: MachineDefinition>(_ definition: D, _ snapshot: D.Instance.Snapshot) -> String? {
    do {
      _ = try D.Instance(definition, restoring: snapshot)
      return nil
    } catch {
      return "\(error)"
    }
  }

  struct Case: Sendable, CustomStringConvertible {
    let description: String
    /// The lamp saved after `toggle`, then stepped on: (the machine that went straight, the
    /// restored one).
    let goOn: @Sendable () throws -> (straight: String, restored: String)
    /// The text of the refusal of a snapshot naming a state the lamp does not have.
    let refuseUnknown: @Sendable () throws -> String?
    /// The text the refusal must contain.
    let refusalNames: String
    /// Where the lamp ends after toggle | toggle, toggle (the restored machine's text).
    let expected: String
  }

  static let cases = [
    Case(
      description: "a table",
      goOn: { try saveAndGoOn(try table(), context: 0, before: [.toggle], after: [.toggle, .toggle]) },
      refuseUnknown: {
        // A state outside the table: a table of fewer states restores a snapshot of another's.
        let small = try TransitionTable<Light, Press, Int, Never>(
          name: "small", initial: .off, rows: [.transition(from: .off, on: .toggle, to: .off)])
        return refusal(small, TableSnapshot(state: .broken, context: 0))
      },
      refusalNames: "broken", expected: "on 3"),
    Case(
      description: "a chart",
      goOn: { try saveAndGoOn(try chart(), context: 0, before: ["toggle", "pause"], after: ["resume", "toggle"]) },
      refuseUnknown: { refusal(try chart(), ChartSnapshot(configuration: ["nowhere"], history: [:], context: 0)) },
      refusalNames: "nowhere", expected: "[\"off\"] 2"),
  ]

  @Test("a restored machine goes on as the machine it was saved from", arguments: cases)
  func restoredMachineGoesOn(_ c: Case) throws {
    let (straight, restored) = try c.goOn()
    #expect(restored == straight)
    #expect(restored == c.expected)
  }

  @Test("a snapshot of a place the definition does not have is refused, naming it", arguments: cases)
  func unknownPlaceIsRefused(_ c: Case) throws {
    let refusal = try #require(try c.refuseUnknown())
    #expect(refusal.contains(c.refusalNames), "\(refusal)")
  }

  @Test("a chart's snapshot keeps what its history remembers: resuming returns to the saved child")
  func chartSnapshotKeepsHistory() throws {
    // Paused from `on`: the history remembers `on`, so a restored machine resumes there (the
    // history's default would be `off`).
    let (straight, restored) = try Self.saveAndGoOn(try Self.chart(), context: 0, before: ["toggle", "pause"], after: ["resume"])
    #expect(restored == straight)
    #expect(restored == "[\"on\"] 1")
  }

  @Test("a table store's snapshot is its state and context, read together")
  func tableStoreSnapshot() async throws {
    let table = try TransitionTable<Light, Press, Int, Command<Press, Never>>(
      name: "lamp", initial: .off,
      rows: [
        .transition(from: .off, on: .toggle, to: .on).update { count, _ in count += 1 },
        .transition(from: .on, on: .toggle, to: .off).update { count, _ in count += 1 },
      ])
    let store = Store(table, context: 0, clock: ManualClock()) { _, _ in }
    store.start()
    store.send(.toggle)
    store.send(.toggle)
    store.send(.toggle)
    #expect(store.snapshot == TableSnapshot(state: .on, context: 3))
    var machine = try Machine(store.table, restoring: store.snapshot)
    _ = machine.send(.toggle)
    #expect(machine.state == .off && machine.context == 4)
    await store.finish()
  }
}
