/// A chart store's steps whose one output is a message to a child: told apart when the step is
/// made, and committed apart (see ``StoreRuntime/keep(messaging:_:skipped:batch:stepper:)``).
extension ChartEngine {
  /// A macrostep whose one output is a message to deliver now (``ChartAction/message(_:to:)``,
  /// or a ``Command/message(_:)`` without delay): most steps that message a child do nothing
  /// else. (A message among other outputs is registered with them, in their order.)
  @inlinable
  static func isMessaging(_ outcome: Outcome) -> Bool { outcome.messaging }

  /// Whether `outputs` is one message to deliver now (see ``isMessaging(_:)``): asked once, when
  /// the step is made, and read in place. (Asked of the outcome by the drain loop and again by
  /// the commit, each copied the output out of the array, through its generic value witness.)
  @inlinable
  static func deliversAlone(_ outputs: [ChartOutput<Event, Effect>]) -> Bool {
    guard outputs.count == 1 else { return false }
    return outputs.withUnsafeBufferPointer { outputs in
      switch outputs[0] {
      case .message: true
      case .effect(.message(let message)): !message.isDelayed
      default: false
      }
    }
  }

  /// (Made here, by the drainer, outside the lock: a chart's own message output is made into
  /// a ``MachineMessage`` only now.)
  @inlinable
  static func message(of outcome: Outcome) -> MachineMessage? {
    guard let outputs = outcome.step?.outputs, !outputs.isEmpty else { return nil }
    return outputs.withUnsafeBufferPointer { outputs in
      switch outputs[0] {
      case .message(let event, let target): MachineMessage(event, to: target)
      case .effect(.message(let message)): message
      default: nil
      }
    }
  }

  /// Delivered now, by a chart that halted in this step too: its last word to another machine
  /// (see ``commit(_:owners:exits:skippingMessage:to:_:)``).
  @inlinable
  static func commitMessage(_ message: consuming MachineMessage, to core: inout StoreCore<Self>, _ work: inout StoreCore<Self>.StepWork) -> MachineMessage? {
    message
  }

  /// Whether an output after `position` is a message to deliver now. A state's invocations
  /// start when the macrostep that entered it has ended, and its messages went out during it
  /// (SCXML's `<send>`, and `fsm run`): an invocation with messages after it starts after them,
  /// so that one to the child it starts finds it not started yet.
  @inlinable
  static func messages(after position: Int, in outputs: [ChartOutput<Event, Effect>]) -> Bool {
    outputs[(position + 1)...].contains { output in
      switch output {
      case .message: true
      case .effect(.message(let message)), .delayedMessage(let message): !message.isDelayed
      default: false
      }
    }
  }

  /// Whether `output`, at `position` among its step's outputs, is a message to deliver now to
  /// a child that the exit of its state had cancelled earlier in the step (among `cancelled`,
  /// the step's cancelled effects; `exits`, its exits). SCXML cancels a state's invocations as
  /// it exits the state, after the state's exit content and before anything the macrostep does
  /// later: such a message finds no child, and raises `error.communication` (one in the exit
  /// content went out while the child ran, and is dropped with it). `fsm run` does the same.
  /// (Asked only of a step that exited states and cancelled something: the children are found
  /// among the cancelled effects only for a message, so that a step that cancels work as it
  /// leaves a state looks at nothing more.)
  @inlinable
  static func sentAfterItsChild(
    _ output: ChartOutput<Event, Effect>, at position: Int, exits: [ChartExit], cancelled: [StoreCore<Self>.Running]
  ) -> Bool {
    let target: String
    switch output {
    case .message(_, let to): target = to
    case .effect(.message(let message)), .delayedMessage(let message):
      // (A forwarded copy goes only to a child that runs, and raises nothing when none does.)
      guard !message.isDelayed, !message.isForwarded else { return false }
      target = message.target
    default: return false
    }
    let invoked = MachineMessage.invokedID(in: target)
    for exit in exits where exit.output <= position {
      // (What an exit cancelled belonged to the state it left.)
      for effect in cancelled where effect.owner == exit.state {
        guard let id = effect.id?.name, id == target || id == invoked else { continue }
        // A child that had started, or one still starting: its command is its invocation.
        if effect.child != nil { return true }
        if case .invoke? = effect.command { return true }
      }
    }
    return false
  }
}
