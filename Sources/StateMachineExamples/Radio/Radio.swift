public import StateMachine

/// An internet radio: the statechart features together, in a shape an app ships.
///
/// - **Parallel regions**: while `on`, three regions run side by side — `playback` (stopped,
///   buffering, playing, paused), `network` (online, offline) and `sleepTimer` (awake, armed).
/// - **Eventless transitions**: `buffering` moves to `playing` as soon as the network region is
///   `online`, and `playing` falls back to `buffering` as soon as it is `offline` — no event of
///   their own: they follow the other region (`In(online)`, `In(offline)` guards).
/// - **History**: `power` (or the sleep timer) leaves `on`; the next `power` returns through
///   the `resume` history state to what playback was doing, not to `stopped`.
/// - **State-scoped effects**: the stream belongs to `playing` and the sleep timer's delay to
///   `armed` (``EffectScope/state``): leaving the state ends them, however it is left.
///
/// ```
/// off ⇄ on (parallel)
///        ├── playback:   resume (history) · stopped → buffering ⇄ playing ⇄ paused
///        ├── network:    online ⇄ offline
///        └── sleepTimer: awake ⇄ armed (after 30 s: sleep → off)
/// ```
public enum Radio {
  /// The chart's states.
  public enum State: String, Hashable, Sendable, CaseIterable, Codable {
    case off, on
    case playback, resume, stopped, buffering, playing, paused
    case network, online, offline
    case sleepTimer, awake, armed
  }

  /// What the listener does, what the system reports about the network, and the sleep timer.
  public enum Event: String, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case power, play, pause, stop, connectionLost, connectionRestored, armSleepTimer, cancelSleepTimer, sleep
  }

  /// The work the store hands to ``RadioServices``.
  public enum Work: String, Hashable, Sendable, Codable {
    /// Play the station's stream until cancelled.
    case stream
  }

  public typealias Effect = Command<Event, Work>

  /// How long the sleep timer waits.
  public static let sleepDelay: Duration = .seconds(30)

  /// The chart.
  public static let chart: Chart<State, Event, NoContext, Effect> = buildChart {
    try Chart(name: "radio", states: [
      .atomic(.off, transitions: [.on(.power, to: .resume)]),
      .parallel(.on, regions: [
        .compound(.playback, children: [
          .history(.resume, default: [.stopped]),
          .atomic(.stopped, transitions: [.on(.play, to: .buffering)]),
          .atomic(.buffering, transitions: [.always(when: .inState(.online), to: .playing), .on(.stop, to: .stopped)]),
          .atomic(.playing, transitions: [
            .always(when: .inState(.offline), to: .buffering),
            .on(.pause, to: .paused),
            .on(.stop, to: .stopped),
          ], onEntry: [.effect(.perform(.stream, id: "stream", scope: .state))]),
          .atomic(.paused, transitions: [.on(.play, to: .buffering), .on(.stop, to: .stopped)]),
        ]),
        .compound(.network, children: [
          .atomic(.online, transitions: [.on(.connectionLost, to: .offline)]),
          .atomic(.offline, transitions: [.on(.connectionRestored, to: .online)]),
        ]),
        .compound(.sleepTimer, children: [
          .atomic(.awake, transitions: [.on(.armSleepTimer, to: .armed)]),
          .atomic(.armed, transitions: [.on(.cancelSleepTimer, to: .awake), .on(.sleep, to: .off)],
                  onEntry: [.effect(.send(.sleep, after: sleepDelay, id: "sleep", scope: .state))]),
        ]),
      ], transitions: [.on(.power, to: .off)]),
    ])
  }

  /// What the radio shows: power, what playback does, the network and the sleep timer.
  public static func screen(_ configuration: [State], _ context: NoContext) -> String {
    guard !configuration.contains(.off) else { return "off" }
    let playback = configuration.first { [.stopped, .buffering, .playing, .paused].contains($0) } ?? .stopped
    let symbol = [State.playing: "▶ playing", .buffering: "… buffering", .paused: "❚❚ paused"][playback] ?? "■ stopped"
    return symbol + (configuration.contains(.offline) ? ", offline" : "") + (configuration.contains(.armed) ? ", sleep timer on" : "")
  }
}
