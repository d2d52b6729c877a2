import FSMCommand
import Foundation
import StateMachine

/// Writing and replaying a 1 M-entry `loader` log.
enum ReplayBench {
  typealias State = LoaderBench.State
  typealias Event = LoaderBench.Event
  typealias Log = EventLog<State, Event, NoContext, Never>

  static func workload(count: Int) -> BenchWorkload {
    let events = LoaderBench.events(count: count, seed: 0x5EED)
    let table = LoaderBench.table
    var machine = Machine(table)
    var log = Log(header: .init(machine: table.name, fingerprint: table.fingerprint, state: .idle, context: NoContext()))
    log.entries.reserveCapacity(count)
    for (i, event) in events.enumerated() {
      let outcome = machine.send(event)
      log.entries.append(.init(
        sequence: i + 1, time: nil, event: event, outcome: LoggedOutcome(outcome), state: machine.state,
        context: NoContext(), effects: []))
    }
    let recorded = log
    let data = (try? recorded.encoded()) ?? Data()
    return BenchWorkload(
      name: "replay", events: count,
      variants: [
        LoaderBench.countingSwitchVariant("switch (steps only)", events: events),
        BenchVariant(name: "replay write (encode JSON Lines)") {
          ((try? recorded.encoded())?.count ?? 0) > 0 ? count : 0
        },
        .replay("replay (decode + step + compare)") {
          let read = Log.read(data, for: table)
          return read.error == nil ? read.log.map { ($0.entries.count, table.replay($0).isIdentical) } : nil
        },
      ],
      notes: [
        "bytes_per_entry": Double(data.count) / Double(max(1, count)),
        "log_megabytes": Double(data.count) / 1_000_000,
      ])
  }
}
