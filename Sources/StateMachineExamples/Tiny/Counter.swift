public import StateMachine

/// A counter that a 1 s periodic timer increments: the timer is the state's entry effect,
/// and the store runs it on its clock.
///
/// ```swift
/// let clock = ManualClock()
/// let store = Counter.store(clock: clock)
/// store.start()
/// await clock.advance(by: .seconds(3))
/// store.context.count  // 3
/// ```
public enum Counter {
  public enum State: String, Hashable, Sendable, CaseIterable, Codable, Discriminated { case counting }
  public enum Event: String, Hashable, Sendable, CaseIterable, Codable, Discriminated { case tick }

  public struct Context: Hashable, Sendable, Codable {
    public var count = 0
    public init(count: Int = 0) { self.count = count }
  }

  /// No work of its own: the only effect is the store's built-in timer.
  public typealias Effect = Command<Event, Never>

  /// The transition table.
  public static let table: TransitionTable<State, Event, Context, Effect> = build {
    try TransitionTable(
      name: "counter",
      initial: .counting,
      states: [.final(.counting, entry: [.every(.seconds(1), send: .tick, id: "ticker")])],
      rows: [.stay(in: .counting, on: .tick).update { context, _ in context.count += 1 }])
  }

  /// A store running ``table`` on `clock`; call `start()` to start the timer.
  public static func store(
    clock: any Clock<Duration>, inspector: Store<TransitionTable<State, Event, Context, Effect>>.Inspector? = nil
  ) -> Store<TransitionTable<State, Event, Context, Effect>> {
    Store(table, context: Context(), clock: clock, handler: { _, _ in }, inspector: inspector)
  }
}
