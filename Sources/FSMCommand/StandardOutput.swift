import Foundation
import Synchronization

/// `fsm`'s standard output, written without trapping: Foundation's `FileHandle.write(_:)`
/// traps when the write fails (a closed standard output, or a broken pipe with SIGPIPE
/// ignored), which ended `fsm` with a crash and a backtrace. A failed write is remembered, and
/// nothing more is written after it; ``FSM/main(_:catalog:)`` then says so and exits
/// ``failureCode``.
final class StandardOutput: Sendable {
  /// `fsm`'s exit code when its standard output could not be written (sysexits' `EX_IOERR`).
  static let failureCode: Int32 = 74

  private let failure = Mutex<String?>(nil)

  /// Why a write failed, once one has.
  var failed: String? { failure.withLock { $0 } }

  /// Writes `text`, unless a write has failed already.
  func write(_ text: String) {
    failure.withLock { failure in
      guard failure == nil else { return }
      do {
        try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
      } catch {
        failure = Self.reason(error)
      }
    }
  }

  /// The POSIX error under Foundation's, as `strerror` words it, when there is one.
  static func reason(_ error: any Error) -> String {
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
    if let posix = underlying, posix.domain == NSPOSIXErrorDomain, let message = strerror(Int32(posix.code)) {
      return String(cString: message)
    }
    return "\(error)"
  }
}

/// Writes `text` to standard error; a failed write (a closed standard error) is dropped, not a
/// trap: there is nowhere left to say it.
package func printToStandardError(_ text: String) {
  try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
}
