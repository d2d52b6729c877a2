/// A chart in a store emits ``Command``s as its effects, and asks for the rest (sends to itself,
/// cancels, messages to other machines) by its other outputs. Each of those is, in a store, the
/// command a table would emit for it: the store runs it as that command, and a step's
/// ``ChartStep/effects`` (what test stores assert, logs record and replays compare) lists it
/// as that command, as a table's step lists its own.
extension ChartOutput {
  /// The command that does what this output asks: an effect is itself; `.send` is
  /// ``Command/send(_:after:id:scope:)`` (global: a pending send outlives the state that made
  /// it, as in SCXML); `.cancel` is ``Command/cancel(_:)``; a message is
  /// ``Command/message(_:)``.
  @inlinable
  func command<Work>() -> Effect where Effect == Command<Event, Work> {
    switch self {
    case .effect(let command): command
    case .send(let event, let delay, let id): .send(event, after: delay, id: id.map { EffectID($0) }, scope: .global)
    case .cancel(let id): .cancel(EffectID(id))
    case .message(let event, let target): .message(MachineMessage(event, to: target))
    case .delayedMessage(let message): .message(message)
    }
  }
}

/// An effect type that can stand for a chart's every output (see
/// ``ChartOutput/command()``): ``Command``. A chart of any other effect type lists only its
/// `.effect` outputs as its effects.
@usableFromInline
protocol ChartOutputCommand {
  /// `output`, a ``ChartOutput`` whose effects are of this type, as the command that does
  /// what it asks (`nil`: an output of other events).
  static func command(standingFor output: Any) -> Any?
}

extension Command: ChartOutputCommand {
  @usableFromInline
  static func command(standingFor output: Any) -> Any? {
    (output as? ChartOutput<Event, Self>)?.command()
  }
}

extension Array {
  /// The effects among a macrostep's outputs, in order: its `.effect` outputs and, when the
  /// effects are ``Command``s of the chart's events (a store's chart), the commands its other
  /// outputs stand for (see ``ChartOutput/command()``). `allOutputs: false`: the `.effect`
  /// outputs alone, as a log of format version 1 recorded them.
  @inlinable
  func effects<Event, Effect>(allOutputs: Bool = true) -> [Effect] where Element == ChartOutput<Event, Effect> {
    var effects: [Effect] = []
    for output in self {
      if case .effect(let effect) = output {
        effects.append(effect)
      } else if allOutputs, let commands = Effect.self as? any ChartOutputCommand.Type,
        let command = commands.command(standingFor: output) as? Effect
      {
        effects.append(command)
      }
    }
    return effects
  }
}
