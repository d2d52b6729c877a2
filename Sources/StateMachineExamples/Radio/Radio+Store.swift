public import StateMachineChecking
public import StateMachine

/// What the radio needs from the outside world.
public struct RadioServices: Sendable {
  /// Plays the stream until the task is cancelled.
  public var stream: @Sendable () async throws -> Void

  public init(stream: @escaping @Sendable () async throws -> Void) { self.stream = stream }

  /// A stream that plays on `clock` until it is cancelled.
  public static func fake(clock: any Clock<Duration>) -> RadioServices {
    RadioServices { try await clock.sleep(for: .seconds(24 * 3600)) }
  }
}

extension RadioServices {
  /// Performs the radio's work (the stream sends nothing back).
  func perform(_ work: Radio.Work) async throws {
    switch work {
    case .stream: try await stream()
    }
  }
}

extension Radio {
  /// A store running ``chart``.
  public typealias Runtime = Store<Chart<State, Event, NoContext, Effect>>

  /// A store running the radio with `services`.
  public static func store(services: RadioServices, clock: any Clock<Duration>, inspector: Runtime.Inspector? = nil) -> Runtime {
    shippedChartStore { () throws(ChartRunError) in
      try Runtime(chart, context: NoContext(), clock: clock, handler: { work, _ in try await services.perform(work) }, inspector: inspector)
    }
  }

  /// Plays, loses and regains the network, pauses, powers off and back on (history), and
  /// lets the sleep timer power it off.
  public static let demo = MachineDemo(
    name: chart.name,
    summary: "play, the network drops and returns (buffering follows it), pause, power off and on (history resumes), then the 30 s sleep timer",
    script: [
      .send(.power), .send(.play), .wait(.seconds(5)), .send(.connectionLost), .wait(.seconds(3)), .send(.connectionRestored),
      .send(.pause), .send(.power), .send(.power), .send(.play), .send(.armSleepTimer), .wait(.seconds(30)), .send(.power),
    ],
    makeStore: { clock, inspector in store(services: .fake(clock: clock), clock: clock, inspector: inspector) },
    show: screen)

  /// Power, play, and the sleep timer never leave the radio in two playback states; the stream
  /// runs only while playing and online.
  public static let model = MachineModel(
    chart: chart, context: NoContext(), alphabet: Event.allCases,
    invariants: [
      ("off, or one state of each region", { states, _ in states == [.off] || states.count == 3 }),
      ("never playing while offline", { states, _ in !(states.contains(.playing) && states.contains(.offline)) }),
      ("buffering only while offline", { states, _ in !(states.contains(.buffering) && states.contains(.online)) }),
    ])
}
