import StateMachine

/// The machines the system tests run: a job (a table) that a parent chart invokes, and a group
/// (a chart) that invokes a job of its own.
enum SystemMachines {
  typealias Job = TransitionTable<String, String, [String], Command<String, Never>>
  typealias Parent = Chart<String, String, ParentContext, Command<String, Never>>

  struct ParentContext: Hashable, Sendable {
    var heard: [String] = []
  }

  /// working ⇄ paused → done; a ticker while working; every event it handles is kept in order.
  static let job: Job = {
    do {
      return try Job(
        name: "job", initial: "working",
        states: [
          .state("working", entry: [.every(.seconds(1), send: "tick", id: "ticker", scope: .state)]),
          .state("paused"), .final("done"),
        ],
        rows: [
          .transition(from: "working", on: "pause", to: "paused"),
          .transition(from: "paused", on: "resume", to: "working"),
          .transition(from: "working", on: "complete", to: "done"),
          .stayInAny(on: "note").update { heard, _ in heard.append("note") },
          .stayInAny(on: "tick"),
        ],
        policy: .ignore)
    } catch {
      preconditionFailure("invalid state: the job table is valid: \(error)")
    }
  }()

  /// The job as a child: it says when it pauses, and is done in `done`.
  static func jobChild(inspector: Store<Job>.Inspector? = nil) -> ChildMachine<String> {
    ChildMachine(
      job, context: [], toParent: { step in step.to == "paused" && step.from != "paused" ? "jobPaused" : nil },
      doneWhen: { $0 == "done" }, onDone: { _ in "jobDone" }, inspector: inspector)
  }

  /// idle → running (invokes the job as `job`) → finished on its done; `stop` leaves running;
  /// `poke` sends the message `poke` (by default, `pause` to the job); `lost` messages a child
  /// that does not exist.
  static func parent(
    child: ChildMachine<String>, scope: EffectScope = .state, poke: MachineMessage = MachineMessage("pause", to: "job")
  ) throws -> Parent {
    try Parent(name: "parent", states: [
      .compound("root", children: [
        .atomic("idle", transitions: [.on("start", to: "running")]),
        .atomic("running", transitions: [
          .on("jobDone", to: "finished"),
          .on("stop", to: "idle"),
          .on("poke", do: [.effect(.message(poke))]),
          .on("lost", do: [.effect(.message(MachineMessage("pause", to: "nobody")))]),
        ], onEntry: [.effect(.invoke(child, id: "job", scope: scope))]),
        .atomic("finished"),
      ], transitions: [
        // Heard anywhere: what the child says.
        .on("jobPaused", do: [.update { context, event in context.heard.append(event ?? "") }]),
      ]),
    ])
  }
}

/// Every report an inspector saw, as lines: effects' starts and ends, and steps.
final class SystemLedger: Sendable {
  private let entries = Guarded<[String]>([])

  func record<Event, Step>(_ report: StoreReport<Event, Step>) {
    let line: String? =
      switch report {
      case .effectStarted(_, let d): "start \(d)"
      case .effectFinished(_, let d): "finished \(d)"
      case .effectCancelled(_, let d): "cancelled \(d)"
      case .effectFailed(let d, let error, _): "failed \(d): \(error)"
      case .childStep(let step): "step \(step.path): \(step.event): \(step.from) → \(step.to)"
      default: nil
      }
    if let line { entries.withLock { $0.append(line) } }
  }

  /// Effects' starts and ends.
  var all: [String] { entries.withLock { $0 }.filter { !$0.hasPrefix("step ") } }
  /// Children's steps.
  var childSteps: [String] { entries.withLock { $0 }.filter { $0.hasPrefix("step ") } }
}

/// The kind of machine a test's host is: the message tests run the same events on a table and
/// on a chart.
enum HostKind: String, CaseIterable, Sendable {
  case table, chart
}

/// A store of either kind, as a test that sends to it holds it (a table's and a chart's store
/// are different types).
struct HeldStore<Event: Sendable, Context>: Sendable {
  let send: @Sendable (Event) -> SendResult
  let context: @Sendable () -> Context
  let settle: @Sendable () async -> Void
  let finish: @Sendable () async -> Void

  init<Definition: StoreDefinition>(_ store: Store<Definition>) where Definition.Event == Event, Definition.Context == Context {
    (send, context) = ({ store.send($0) }, { store.context })
    (settle, finish) = ({ await store.settle() }, { await store.finish() })
  }
}
