import StateMachine
import StateMachineExamples

/// The shipped captcha table written again as a flat chart: the same states, events, context,
/// guards, updates and effects, so exploring both measures what a chart costs against a table
/// of its size (the explorer, the model and the machine being otherwise the same).
enum CaptchaChart {
  typealias State = Captcha.State
  typealias Event = Captcha.Event
  typealias Context = Captcha.Context
  typealias Guard = ChartGuard<State, Event, Context>
  typealias Action = ChartAction<Event, Context, Captcha.Effect>

  static let invalidPhone = Guard("invalidPhone") { context, _ in !Captcha.isValidPhone(context.phone) }
  static let moreToCount = Guard("remaining > 1") { context, _ in context.remaining > 1 }
  static let editPhone = Action.update("edit phone") { context, event in
    if case .editPhone(let text)? = event { context.phone = text }
  }
  static let reset = Action.update("reset") { context, _ in context = Context() }

  /// What every state does on `editPhone` (stays, the phone edited) and `reset` (to `idle`, the
  /// context cleared): the table's `stayInAny` and `fromAny` rows.
  static func anywhere(_ transitions: [ChartTransition<State, Event, Context, Captcha.Effect>])
    -> [ChartTransition<State, Event, Context, Captcha.Effect>]
  {
    transitions + [.on(.editPhone, do: [editPhone]), .on(.reset, to: .idle, actions: [reset])]
  }

  static let chart: Chart<State, Event, Context, Captcha.Effect> = try! Chart(name: "captcha-chart", states: [
    .atomic(.idle, transitions: anywhere([
      .on(.tap, when: invalidPhone, do: [.update("invalid phone") { context, _ in context.message = Captcha.invalidPhoneMessage }]),
      .on(.tap, to: .requesting, actions: [
        .update("clear message") { context, _ in context.message = nil },
        .make("requestCode") { context, _ in .perform(.requestCode(phone: context.phone), id: "request", scope: .state) },
      ]),
    ])),
    .atomic(.requesting, transitions: anywhere([
      .on(.codeSent, to: .counting, actions: [.update("start countdown") { context, _ in
        context.remaining = Captcha.countdownSeconds
        context.sentBefore = true
      }]),
      .on(.requestFailed, to: .idle, actions: [.update("keep message") { context, event in
        if case .requestFailed(let message)? = event { context.message = message }
      }]),
    ])),
    .atomic(.counting, transitions: anywhere([
      .on(.tick, when: moreToCount, do: [.update("count down") { context, _ in context.remaining -= 1 }]),
      .on(.tick, to: .idle, actions: [.update("countdown over") { context, _ in context.remaining = 0 }]),
    ]), onEntry: [.effect(.every(.seconds(1), send: .tick, id: "ticker", scope: .state))]),
  ])
}
