/// One row of a ``TransitionTable``: source state(s) → event → optional guard → target (or stay,
/// or ignore) → effects, with an optional update of the context.
///
/// Rows are built with static functions and refined with modifiers, so a table reads as data:
///
/// ```swift
/// let rows: [Row<Player, Input, NoContext, Action>] = [
///     .transition(from: .stopped, on: .play, to: .playing, effects: .startPlayback),
///     .transition(from: [.playing, .paused], on: .stop, to: .stopped, effects: .stopPlayback),
///     .stay(in: .playing, on: .tick).update { context, _ in context.elapsed += 1 },
///     .ignore(in: .empty, on: .play),
///     .fromAny(on: .eject, to: .open),
/// ]
/// ```
public struct Row<State: Discriminated, Event: Discriminated, Context, Effect: Sendable>: Sendable {
  /// Changes the context, given the event.
  public typealias Update = @Sendable (inout Context, Event) -> Void

  @usableFromInline
  enum Source: Sendable {
    case states([State.Discriminant])
    case any
  }

  @usableFromInline
  enum Target: Sendable {
    /// Leave the source (exit effects), enter this state (entry effects).
    case state(State)
    /// Like `.state`, with the state's payload made from the context (after the update) and the event.
    case make(State.Discriminant, String, @Sendable (Context, Event) -> State)
    /// An internal transition: no exit, no entry.
    case stay
    /// The event is expected here and deliberately does nothing.
    case ignore
  }

  @usableFromInline var source: Source
  /// The case of the event this row handles.
  package let event: Event.Discriminant
  /// The guard, if any.
  package internal(set) var guardCondition: Guard<Context, Event>?
  @usableFromInline var target: Target
  @usableFromInline var effects: [EffectItem<Context, Event, Effect>]
  @usableFromInline var update: Update?

  init(source: Source, event: Event.Discriminant, target: Target, effects: [Effect]) {
    self.source = source
    self.event = event
    self.target = target
    self.effects = effects.map { .value($0) }
  }
}

extension Row {
  /// A transition from `source` to `target` on `event`.
  public static func transition(
    from source: State.Discriminant, on event: Event.Discriminant, to target: State,
    effects: Effect...
  ) -> Row {
    Row(source: .states([source]), event: event, target: .state(target), effects: effects)
  }

  /// A transition from each of `sources` to `target` on `event`.
  public static func transition(
    from sources: [State.Discriminant], on event: Event.Discriminant, to target: State,
    effects: Effect...
  ) -> Row {
    Row(source: .states(sources), event: event, target: .state(target), effects: effects)
  }

  /// A transition from `source` to a state whose payload is made from the context (after the
  /// update) and the event. `target` names the case the made state must have.
  public static func transition(
    from source: State.Discriminant, on event: Event.Discriminant,
    toCase target: State.Discriminant, named name: String,
    make: @escaping @Sendable (Context, Event) -> State, effects: Effect...
  ) -> Row {
    Row(source: .states([source]), event: event, target: .make(target, name, make), effects: effects)
  }

  /// A transition from any state (a wildcard row). A row naming the state itself takes
  /// priority over a wildcard row, whatever their order.
  public static func fromAny(on event: Event.Discriminant, to target: State, effects: Effect...) -> Row {
    Row(source: .any, event: event, target: .state(target), effects: effects)
  }

  /// An internal transition: the machine stays in `state` (no exit or entry effects), runs the
  /// update and emits the effects.
  public static func stay(in state: State.Discriminant, on event: Event.Discriminant, effects: Effect...) -> Row {
    Row(source: .states([state]), event: event, target: .stay, effects: effects)
  }

  /// An internal transition in each of `states`.
  public static func stay(in states: [State.Discriminant], on event: Event.Discriminant, effects: Effect...) -> Row {
    Row(source: .states(states), event: event, target: .stay, effects: effects)
  }

  /// An internal transition in any state.
  public static func stayInAny(on event: Event.Discriminant, effects: Effect...) -> Row {
    Row(source: .any, event: event, target: .stay, effects: effects)
  }

  /// Declares that `event` is expected in `state` and does nothing: the step reports
  /// ``StepOutcome/ignored`` instead of rejecting it.
  public static func ignore(in state: State.Discriminant, on event: Event.Discriminant) -> Row {
    Row(source: .states([state]), event: event, target: .ignore, effects: [])
  }

  /// Declares that `event` is expected and does nothing in each of `states`.
  public static func ignore(in states: [State.Discriminant], on event: Event.Discriminant) -> Row {
    Row(source: .states(states), event: event, target: .ignore, effects: [])
  }

  /// Declares that `event` is expected and does nothing in any state without a row of its own for it.
  public static func ignoreInAny(on event: Event.Discriminant) -> Row {
    Row(source: .any, event: event, target: .ignore, effects: [])
  }
}

extension Row {
  /// The row applies only when `condition` holds.
  public func when(_ condition: Guard<Context, Event>) -> Row {
    var copy = self
    copy.guardCondition = condition
    return copy
  }

  /// The row applies only when `predicate` holds; `name` is what renderings show.
  public func when(_ name: String, _ predicate: @escaping @Sendable (Context, Event) -> Bool) -> Row {
    when(Guard(name, predicate))
  }

  /// The row updates the context before its effects are made.
  public func update(_ update: @escaping Update) -> Row {
    var copy = self
    if let first = copy.update {
      copy.update = { @Sendable context, event in
        first(&context, event)
        update(&context, event)
      }
    } else {
      copy.update = update
    }
    return copy
  }

  /// The row also emits these effect items (fixed or made), after its fixed effects.
  public func emit(_ items: EffectItem<Context, Event, Effect>...) -> Row {
    var copy = self
    copy.effects += items
    return copy
  }

  /// The row also emits an effect made from the context (after the update) and the event.
  public func emit(_ name: String, _ build: @escaping @Sendable (Context, Event) -> Effect?) -> Row {
    emit(.make(name, build))
  }
}

extension Row {
  /// Whether the row is a wildcard (applies in any state).
  var isWildcard: Bool {
    if case .any = source { true } else { false }
  }

  /// The source states this row names; empty for a wildcard row.
  package var sourceStates: [State.Discriminant] {
    if case .states(let states) = source { states } else { [] }
  }

  /// The case of the state this row goes to; `nil` for stay and ignore rows.
  package var targetCase: State.Discriminant? {
    switch target {
    case .state(let state): state.discriminant
    case .make(let discriminant, _, _): discriminant
    case .stay, .ignore: nil
    }
  }

  /// The printable names of this row's effects, in order.
  var effectNames: [String] { effects.map(\.name) }
}
