/// What one macrostep did.
public struct ChartStep<Event: Sendable, Effect: Sendable>: Sendable {
  /// Whether a macrostep took transitions.
  ///
  /// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
  /// case is then a warning, not a build error).
  public enum Outcome: Hashable, Sendable {
    /// Transitions were taken.
    case transitioned
    /// No transition matched the event: nothing changed.
    case unhandled
    /// The chart had halted (it reached a final child of its root): the event was ignored.
    case halted
  }

  /// Whether transitions were taken, none matched, or the chart had halted.
  public let outcome: Outcome
  /// Effects, sends and cancels, in the order the content ran.
  public let outputs: [ChartOutput<Event, Effect>]
  /// Microsteps taken (sets of transitions taken together).
  @usableFromInline package let microsteps: Int
  /// What a machine that reports transitions adds; `nil` for the common step, which then
  /// carries no array but its outputs.
  @usableFromInline let trace: ChartTrace?

  /// The transitions taken, in order, as ``Chart/declaredTransitions`` numbers them — when the
  /// machine ``ChartMachine/reportsTransitions``; empty otherwise.
  package var transitions: [Int] { trace?.transitions ?? [] }
  /// The states entered, in order, as positions in ``Chart/states`` (a state entered and left
  /// within the macrostep too) — when the machine ``ChartMachine/reportsTransitions``.
  package var entered: [Int] { trace?.entered ?? [] }

  @inlinable
  init(outcome: Outcome, outputs: [ChartOutput<Event, Effect>], microsteps: Int, trace: ChartTrace? = nil) {
    (self.outcome, self.outputs, self.microsteps, self.trace) = (outcome, outputs, microsteps, trace)
  }

  /// The effects, in order. When `Effect` is a ``Command`` of the chart's events (a store's
  /// chart), the chart's sends to itself, cancels and messages are among them too, as the
  /// commands a table would emit for them (``Command/send(_:after:id:scope:)``,
  /// ``Command/cancel(_:)``, ``Command/message(_:)``): what a test store asserts, a log records
  /// and a replay compares reads alike for a table and a chart. For any other effect type, the
  /// `.effect` outputs alone.
  @inlinable
  public var effects: [Effect] { outputs.effects() }
}

/// What a macrostep reports beyond its outputs, when the machine is asked to: behind one
/// reference, made only then.
@usableFromInline
final class ChartTrace: Sendable {
  @usableFromInline let transitions: [Int]
  @usableFromInline let entered: [Int]

  @usableFromInline
  init(transitions: [Int], entered: [Int]) { (self.transitions, self.entered) = (transitions, entered) }
}

/// A state exited during a macrostep, and how many of the macrostep's outputs came before it:
/// a state-scoped effect output earlier by that state never starts.
@usableFromInline
package struct ChartExit: Hashable, Sendable {
  @usableFromInline package let state: Int
  @usableFromInline package let output: Int

  @inlinable
  init(state: Int, output: Int) { (self.state, self.output) = (state, output) }
}

/// What a macrostep asks the caller to do.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum ChartOutput<Event: Sendable, Effect: Sendable>: Sendable {
  /// Perform an effect.
  case effect(Effect)
  /// Send `event` to the chart as an external event after `delay` (zero: after this macrostep).
  case send(Event, after: Duration, id: String?)
  /// Cancel the pending send named `id`.
  case cancel(String)
  /// Deliver `event` to the machine at `target` (see ``ChartAction/message(_:to:)``).
  case message(Event, to: String)
  /// Deliver `message` (one of this chart's events) to the machine at its target once its
  /// delay (more than zero) has passed; a pending message with an id is cancelled by
  /// ``cancel(_:)`` (see ``ChartAction/message(_:to:after:id:)``).
  case delayedMessage(MachineMessage)
}

extension ChartOutput: Equatable where Event: Equatable, Effect: Equatable {}

/// Why a macrostep was stopped.
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum ChartRunError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Eventless transitions or raised events kept the macrostep going for `microsteps` steps.
  case didNotSettle(chart: String, microsteps: Int, states: [String])
  /// The internal queue held `events` events, more than ``ChartMachine/maxInternalEvents``.
  case queueOverflow(chart: String, events: Int, states: [String])
  /// A ``Store`` (or a ``MachineSystem``) was given a chart whose invocations (``ChartInvoke``)
  /// it cannot run: those of a chart whose effects are not ``Command``s of its own events, which
  /// `fsm run` runs. (A chart of ``Command``s, an `ECMAScriptChart` among them, runs its
  /// invocations as child machines.)
  case declaresInvokes(chart: String)

  public var description: String {
    switch self {
    case .didNotSettle(let chart, let microsteps, let states):
      "chart '\(chart)': the macrostep did not settle after \(microsteps) microsteps (eventless transitions or raised events loop); active: \(states.joined(separator: ", "))"
    case .queueOverflow(let chart, let events, let states):
      "chart '\(chart)': \(events) internal events waiting, more than the \(ChartMachine<String, String, NoContext, String>.maxInternalEvents) a macrostep may queue (raised events flood it); active: \(states.joined(separator: ", "))"
    case .declaresInvokes(let chart):
      "chart '\(chart)' declares <invoke>s a store does not run: its effects are not Commands of its events (fsm run runs them)"
    }
  }
}

extension ChartStep.Outcome {
  /// What the macrostep answers its event, as the tools read it: transitioned is handled;
  /// unhandled, and any event after the chart halted, are ignored. (The one rule: a chart's
  /// machine, its store's reports and a system's step all read a macrostep through it.)
  @inlinable
  var response: MachineResponse { self == .transitioned ? .handled : .ignored }
}
