import StateMachine
import StateMachineChecking
import Synchronization

extension FileDemo {
  /// Why a system's demo stopped: what `fsm demo` prints.
  struct Failure: Error {
    let message: String
  }

  /// A chart file that invokes others: the document and the charts it invokes run in a store on
  /// a manual clock, as a shipped system's demo runs. Each step of each machine is printed, a
  /// child's after its path (`[w] finish`), and each child's end; `after 2s` lets clock time
  /// pass. A walk picks among the events from outside the system (``DocumentSystem/inputs``) and
  /// ends early when the document halts. With `path`, the session is also recorded there as the
  /// system's one log (a new file), which `fsm replay` and `fsm view` read against the document.
  static func run(
    _ system: DocumentSystem, _ script: Script, recordingTo path: String?, emit: @escaping @Sendable (String) -> Void
  ) async -> Result<Void, Failure> {
    for line in header("\(system.document.name) (chart \(system.file), with the charts it invokes): " + describe(script)) { emit(line) }
    let clock = ManualClock()
    let printer = DemoPrinter<DocumentSystem.Root>(clock: clock, width: 48, show: nil, emit: emit)
    let start = StartLine()
    let store: Store<DocumentSystem.Root>
    do throws(ChartRunError) {
      store = try Store(
        system.root, context: NoContext(), clock: clock, handler: { _, _ in },
        inspector: { report in
          if let line = start.line(before: report) { emit(line) }
          printer.print(report)
        })
    } catch {
      return .failure(Failure(message: "\(system.file): the chart cannot start: \(error)"))
    }
    start.begin(at: store.configuration)
    let errors = Mutex<LogError?>(nil)
    let recorder: LogRecorder<ChartLogState<String>, String, NoContext, Command<String, String>>?
    do throws(LogError) {
      recorder = try path.map { path throws(LogError) in
        try store.record(to: path) { error in errors.withLock { if $0 == nil { $0 = error } } }
      }
    } catch {
      return .failure(Failure(message: error.description))
    }
    store.start()
    await clock.settle()
    if let line = start.ended() { emit(line) }
    printer.started(paths: store.children)
    func play(_ event: String) async {
      if event.hasPrefix("after "), let delay = SCXMLDocument.duration(String(event.dropFirst(6))) {
        await clock.advance(by: delay)
      } else {
        // (A store whose document has halted takes no more events: each is shown refused.)
        if case .rejected(let reason) = store.send(event) {
          emit(line(time: clock.now.offset, event: event, move: "(refused: \(reason))", effects: []))
        }
        await clock.settle()
      }
    }
    switch script {
    case .events(let events): for event in events { await play(event) }
    case .walk(let steps, let seed):
      var random = SplitMix64(seed: seed)
      let inputs = system.inputs
      for _ in 0..<steps where !inputs.isEmpty && !store.isHalted { await play(inputs[Int(random.next() % UInt64(inputs.count))]) }
    }
    let ending = ChildStep.shown(store.configuration) + (store.isHalted ? " (halted)" : "")
    await store.finish()
    emit("")
    emit("ends in: \(ending)")
    do throws(LogError) { try recorder?.close() } catch { return .failure(Failure(message: error.description)) }
    if let error = errors.withLock({ $0 }) { return .failure(Failure(message: error.description)) }
    return .success(())
  }

  /// The line of a system demo's start: the configuration the document starts in and the
  /// effects its start ran (its children's invocations), printed before the first step.
  final class StartLine: Sendable {
    /// Until printed: the configuration, and the effects started so far.
    private let pending = Mutex<(configuration: String, effects: [String])?>(nil)

    /// Begins the line: the store starts in `configuration`.
    func begin<Configuration>(at configuration: Configuration) {
      pending.withLock { $0 = (ChildStep.shown(configuration), []) }
    }

    /// The start's line, when `report` is the first thing after it; an effect the start ran is
    /// noted in it.
    func line<Event, Step>(before report: StoreReport<Event, Step>) -> String? {
      pending.withLock { pending in
        guard let started = pending else { return nil }
        switch report {
        case .effectStarted(_, let description):
          pending?.effects.append(description)
          return nil
        case .effectFinished: return nil
        default:
          pending = nil
          return Self.line(started)
        }
      }
    }

    /// The start's line, when nothing came after it (the store has started and settled).
    func ended() -> String? {
      pending.withLock { pending in
        defer { pending = nil }
        return pending.map(Self.line)
      }
    }

    static func line(_ started: (configuration: String, effects: [String])) -> String {
      FileDemo.line(time: .zero, event: "(start)", move: "→ " + started.configuration, effects: started.effects)
    }
  }
}
