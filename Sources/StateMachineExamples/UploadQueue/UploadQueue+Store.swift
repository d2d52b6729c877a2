public import StateMachine
import Synchronization

/// What the upload queue's children need: a way to send a file.
public struct UploadServices: Sendable {
  /// Sends `file`; throws when the attempt failed.
  public var send: @Sendable (_ file: String) async throws -> Void

  /// Services sending with `send`.
  public init(send: @escaping @Sendable (_ file: String) async throws -> Void) { self.send = send }

  /// No upload service.
  public struct Unavailable: Error, CustomStringConvertible {
    public var description: String { "no upload service" }
  }

  /// A fake server on `clock`: a file takes 2 s; one whose name contains `broken` always
  /// fails, one whose name contains `flaky` fails its first attempt.
  public static func fake(clock: any Clock<Duration>) -> UploadServices {
    let attempts = Mutex<[String: Int]>([:])
    return UploadServices { file in
      try await clock.sleep(for: .seconds(2))
      let attempt = attempts.withLock { tries -> Int in
        tries[file, default: 0] += 1
        return tries[file]!
      }
      if file.contains("broken") || (file.contains("flaky") && attempt == 1) { throw Unavailable() }
    }
  }
}

extension UploadQueue {
  /// A store running the queue.
  public typealias Runtime = Store<Chart<State, Event, Context, Effect>>

  /// A store running the queue, its uploads through `services`.
  public static func store(services: UploadServices, clock: any Clock<Duration>, inspector: Runtime.Inspector? = nil) -> Runtime {
    shippedChartStore { () throws(ChartRunError) in
      try Runtime(chart(services: services), context: Context(), clock: clock, handler: { _, _ in }, inspector: inspector)
    }
  }
}
