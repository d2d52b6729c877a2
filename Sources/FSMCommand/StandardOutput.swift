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

  /// The POSIX error code of the first write that failed (-1: not a POSIX error); 0 until one
  /// has. (An atomic, not a lock: ThreadSanitizer cannot see `Mutex`'s futex calls on Linux.)
  private let failure = Atomic<Int>(0)

  /// Why a write failed, once one has.
  var failed: String? {
    switch failure.load(ordering: .acquiring) {
    case 0: nil
    case -1: "the write failed"
    case let code: strerror(Int32(code)).map { String(cString: $0) } ?? "error \(code)"
    }
  }

  /// Writes `text`, unless a write has failed already.
  func write(_ text: String) {
    guard failure.load(ordering: .acquiring) == 0 else { return }
    do {
      try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    } catch {
      _ = failure.compareExchange(expected: 0, desired: Self.code(error), ordering: .acquiringAndReleasing)
    }
  }

  /// The POSIX error code under Foundation's error, or -1.
  static func code(_ error: any Error) -> Int {
    guard let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain, posix.code != 0 else {
      return -1
    }
    return posix.code
  }
}

/// Writes `text` to standard error; a failed write (a closed standard error) is dropped, not a
/// trap: there is nowhere left to say it.
package func printToStandardError(_ text: String) {
  try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
}
