public import StateMachine

/// The CD player of Boost.SML's "simple" benchmark: 5 states, 6 events, 12 transitions.
/// Events with no row are dropped, as in the original, so its policy is `ignore`.
public enum CDPlayer {
  /// The player's states.
  public enum State: String, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case empty, open, stopped, playing, paused
  }

  /// The buttons and sensors.
  public enum Event: String, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case play, endPause, stop, pause, openClose, cdDetected
  }

  /// What the player does on a transition.
  public enum Action: String, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case startPlayback, resumePlayback, closeDrawer, openDrawer, stopAndOpen
    case stoppedAgain, storeCDInfo, pausePlayback, stopPlayback

    public var description: String { rawValue }
  }

  /// The transition table.
  public static let table: TransitionTable<State, Event, NoContext, Action> = build {
    try TransitionTable(
      name: "cd-player",
      initial: .empty,
      rows: [
        .transition(from: .stopped, on: .play, to: .playing, effects: .startPlayback),
        .transition(from: .paused, on: .endPause, to: .playing, effects: .resumePlayback),
        .transition(from: .open, on: .openClose, to: .empty, effects: .closeDrawer),
        .transition(from: .empty, on: .openClose, to: .open, effects: .openDrawer),
        .transition(from: .paused, on: .openClose, to: .open, effects: .stopAndOpen),
        .transition(from: .stopped, on: .openClose, to: .open, effects: .openDrawer),
        .transition(from: .playing, on: .openClose, to: .open, effects: .stopAndOpen),
        .transition(from: .playing, on: .pause, to: .paused, effects: .pausePlayback),
        .transition(from: .playing, on: .stop, to: .stopped, effects: .stopPlayback),
        .transition(from: .paused, on: .stop, to: .stopped, effects: .stopPlayback),
        .transition(from: .empty, on: .cdDetected, to: .stopped, effects: .storeCDInfo),
        .transition(from: .stopped, on: .stop, to: .stopped, effects: .stoppedAgain),
      ],
      policy: .ignore)
  }

  /// The 11-event cycle Boost.SML's benchmark repeats.
  public static let benchmarkCycle: [Event] = [
    .openClose, .openClose, .cdDetected, .play, .pause, .endPause, .pause, .stop, .stop, .openClose, .openClose,
  ]
}
