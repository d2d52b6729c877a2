public import StateMachine
import Foundation
import Synchronization

/// One step of a demo script: send an event, or let clock time pass.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum DemoStep<Event: Sendable>: Sendable {
  /// Send the event to the store, as a user or a test would.
  case send(Event)
  /// Let `duration` of clock time pass: timers fire and effects finish on the way.
  case wait(Duration)
}

/// A scripted run of a machine (a table or a chart) in a `Store` with fake
/// services, on a `ManualClock`; what `fsm demo <machine>` prints.
///
/// Every step the store takes is printed as one line: the clock time, the event, the state
/// before and after, the effects, and what a screen would show. The steps of the store's child
/// machines are printed too, each event after its machine's path in brackets (`[a.jpg] retryNow`),
/// and the end of each child the store started, once: `[a.jpg] (finished)`, `(cancelled)` or
/// `(failed: …)`.
public struct MachineDemo: Sendable {
  /// The machine's name, as `fsm list` prints it.
  public let name: String
  /// What the script does, in one sentence.
  public let summary: String
  /// How wide the "from → to" column is: configurations of charts need more room.
  private let moveWidth: Int
  private let body: @Sendable (
    ManualClock, @escaping @Sendable (String) -> Void, @escaping @Sendable (Duration) async -> Void, String?
  ) async throws(LogError) -> Void

  /// A demo that runs `script` in the store `makeStore` builds; `show` says what the screen shows.
  public init<State, Event, Context, Work>(
    name: String, summary: String, script: [DemoStep<Event>],
    makeStore: @escaping @Sendable (ManualClock, @escaping Store<TransitionTable<State, Event, Context, Command<Event, Work>>>.Inspector)
      -> Store<TransitionTable<State, Event, Context, Command<Event, Work>>>,
    show: @escaping @Sendable (State, Context) -> String
  ) where State: Codable, Event: Codable, Context: Codable, Work: Codable {
    self.init(name: name, summary: summary, width: 38, script: script, makeStore: makeStore, show: show) { store, path, onError throws(LogError) in
      try store.record(to: path, onError: onError).close
    }
  }

  /// A demo of a chart that runs `script` in the chart store `makeStore` builds; `show` says
  /// what the screen shows for a configuration and context. Each line shows the active atomic
  /// states before and after the step.
  public init<ID, Event, Context, Work>(
    name: String, summary: String, script: [DemoStep<Event>],
    makeStore: @escaping @Sendable (ManualClock, @escaping Store<Chart<ID, Event, Context, Command<Event, Work>>>.Inspector)
      -> Store<Chart<ID, Event, Context, Command<Event, Work>>>,
    show: @escaping @Sendable ([ID], Context) -> String
  ) where ID: Codable, Event: Discriminated & Codable, Context: Codable, Work: Codable {
    self.init(name: name, summary: summary, width: 54, script: script, makeStore: makeStore, show: show) { store, path, onError throws(LogError) in
      try store.record(to: path, onError: onError).close
    }
  }

  /// The demo of any kind of machine: `record` starts a recording of the store to a path and
  /// returns how to close it.
  init<Definition: StoreDefinition>(
    name: String, summary: String, width: Int, script: [DemoStep<Definition.Event>],
    makeStore: @escaping @Sendable (ManualClock, @escaping Store<Definition>.Inspector) -> Store<Definition>,
    show: @escaping @Sendable (Definition.Configuration, Definition.Context) -> String,
    record: @escaping @Sendable (Store<Definition>, String, @escaping @Sendable (LogError) -> Void) throws(LogError) -> () throws(LogError) -> Void
  ) where Definition.Context: Sendable, Definition.Configuration: Sendable {
    self.name = name
    self.summary = summary
    moveWidth = width
    body = { clock, emit, pace, path throws(LogError) in
      let printer = DemoPrinter<Definition>(clock: clock, width: width, show: show, emit: emit)
      let store = makeStore(clock, printer.print)
      let failure = FirstError()
      let close = try path.map { path throws(LogError) in try record(store, path, failure.keep) }
      store.start()
      // The children its start ran (no step tells of them).
      printer.started(paths: store.children)
      await Self.play(script, clock: clock, pace: pace) { store.send($0) }
      emit("")
      let (configuration, context) = (store.configuration, store.context)
      emit("after \(Self.seconds(clock.now.offset)) of clock time: \(Self.shown(configuration))  | \(show(configuration, context))")
      await store.finish()
      try close?()
      if let error = failure.error { throw error }
    }
  }

  /// A table's state as it prints; a chart's active states joined by commas.
  static func shown<Configuration>(_ configuration: Configuration) -> String { ChildStep.shown(configuration) }

  /// Sends the script's events and lets its time pass, a second at a time.
  static func play<Event>(
    _ script: [DemoStep<Event>], clock: ManualClock, pace: @Sendable (Duration) async -> Void, send: (Event) -> SendResult
  ) async {
    await clock.settle()
    for action in script {
      switch action {
      case .send(let event):
        _ = send(event)
        await clock.settle()
      case .wait(let duration):
        var left = duration
        while left > .zero {
          let slice = min(left, .seconds(1))
          await clock.advance(by: slice)
          await pace(slice)
          left -= slice
        }
      }
    }
  }

  /// Runs the script on a new manual clock, printing with `emit`; after each second (or
  /// less) of clock time it awaits `pace` with that duration, so a caller can slow it down.
  /// With `path`, the session is also recorded there as an event log (a new file; clock times
  /// are the manual clock's), which `fsm replay <machine> <path>` replays.
  ///
  /// - Throws: `LogError` when the log cannot be created or written.
  public func run(
    emit: @escaping @Sendable (String) -> Void, pace: @escaping @Sendable (Duration) async -> Void = { _ in },
    recordingTo path: String? = nil
  ) async throws(LogError) {
    emit("\(name): \(summary)")
    emit("")
    emit(Self.pad("time", 8) + Self.pad("event", 34) + Self.pad("from → to", moveWidth) + "effects  | screen")
    try await body(ManualClock(), emit, pace, path)
  }

  /// One printed step: time (`-` when there is no clock), event, move, effects, and the screen
  /// when there is one. `fsm demo` on files prints its steps with it too.
  package static func line<Event, Effect>(
    time: Duration?, event: Event, move: String, effects: [Effect], screen: String? = nil, width: Int = 38
  ) -> String {
    let effects = effects.map { "\($0)" }.joined(separator: ", ")
    return pad(time.map(seconds) ?? "-", 8) + pad("\(event)", 34) + pad(move, width) + (effects.isEmpty ? "-" : effects)
      + (screen.map { "  | " + $0 } ?? "")
  }

  package static func seconds(_ duration: Duration) -> String {
    let (whole, atto) = duration.components
    let tenths = Int(whole) * 10 + Int((Double(atto) / 1e17).rounded())
    return "\(tenths / 10).\(tenths % 10) s"
  }

  package static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }
}

/// The first error a recording reported, if any.
final class FirstError: Sendable {
  private let first = Mutex<LogError?>(nil)
  @Sendable func keep(_ error: LogError) { first.withLock { if $0 == nil { $0 = error } } }
  var error: LogError? { first.withLock { $0 } }
}
