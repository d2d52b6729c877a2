import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An append-only log file with a stated durability policy.
///
/// Each line is written with a single `write(2)`: once ``append(_:)`` returns, the line is in
/// the kernel and survives the process being killed. Against power loss a line is durable once
/// it is synced (`fsync`): after every entry, every N entries, or on ``sync()``, by policy; and
/// always on ``close()``. If the process dies mid-write, the file ends with a torn line;
/// ``open(at:durability:)`` keeps every complete line, truncates the torn tail and says so.
public final class LogFile: Sendable {
  /// When lines are synced to stable storage.
  public enum Durability: Hashable, Sendable {
    /// `fsync` after every line: slowest, nothing lost on power loss.
    case everyEntry
    /// `fsync` after every `n` lines.
    case every(Int)
    /// `fsync` only on ``LogFile/sync()`` and ``LogFile/close()``.
    case onDemand
  }

  /// What reopening an existing log found.
  public struct Recovery: Hashable, Sendable {
    /// Complete lines kept (the header included).
    public var lines: Int
    /// Bytes of a torn last line that were cut off (0: the file ended cleanly).
    public var truncatedBytes: Int
  }

  struct State {
    var descriptor: Int32
    var unsynced = 0
    var closed = false
  }

  /// The file's path.
  public let path: String
  let durability: Durability
  let state: Locked<State>

  private init(path: String, descriptor: Int32, durability: Durability) {
    self.path = path
    self.durability = durability
    state = Locked(State(descriptor: descriptor))
  }

  /// Creates (or empties) the file at `path` and writes `header`, a complete line.
  public static func create(at path: String, header: Data, durability: Durability = .everyEntry) throws(LogError) -> LogFile {
    let descriptor = Glibc_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND)
    guard descriptor >= 0 else { throw .io(path: path, detail: "cannot create: \(String(cString: strerror(errno)))") }
    let file = LogFile(path: path, descriptor: descriptor, durability: durability)
    try file.append(header)
    try file.sync()
    return file
  }

  /// Opens an existing log to append to it: keeps every complete line, truncates a torn tail.
  public static func open(at path: String, durability: Durability = .everyEntry) throws(LogError) -> (LogFile, Recovery) {
    guard let data = FileManager.default.contents(atPath: path) else { throw .io(path: path, detail: "cannot read") }
    let end = data.lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex
    let kept = data.distance(from: data.startIndex, to: end)
    let lines = data[..<end].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    let descriptor = Glibc_open(path, O_WRONLY | O_APPEND)
    guard descriptor >= 0 else { throw .io(path: path, detail: "cannot open: \(String(cString: strerror(errno)))") }
    if kept < data.count {
      guard ftruncate(descriptor, off_t(kept)) == 0, fsync(descriptor) == 0 else {
        _ = Glibc_close(descriptor)
        throw .io(path: path, detail: "cannot truncate the torn tail: \(String(cString: strerror(errno)))")
      }
    }
    return (LogFile(path: path, descriptor: descriptor, durability: durability), Recovery(lines: lines, truncatedBytes: data.count - kept))
  }

  /// Appends one complete line (it must end with a newline) with a single write.
  public func append(_ line: Data) throws(LogError) {
    let result: LogError? = state.withLock { state in
      guard !state.closed else { return .io(path: path, detail: "the log is closed") }
      if let error = Self.writeAll(line, to: state.descriptor, path: path) { return error }
      state.unsynced += 1
      switch durability {
      case .everyEntry: return Self.sync(&state, path: path)
      case .every(let n) where state.unsynced >= max(1, n): return Self.sync(&state, path: path)
      case .every, .onDemand: return nil
      }
    }
    if let result { throw result }
  }

  /// Syncs every line written so far to stable storage.
  public func sync() throws(LogError) {
    if let error = state.withLock({ Self.sync(&$0, path: path) }) { throw error }
  }

  /// Syncs and closes the file. Appending afterwards is an error.
  public func close() throws(LogError) {
    let error: LogError? = state.withLock { state in
      guard !state.closed else { return nil }
      let error = Self.sync(&state, path: path)
      state.closed = true
      _ = Glibc_close(state.descriptor)
      return error
    }
    if let error { throw error }
  }

  private static func sync(_ state: inout State, path: String) -> LogError? {
    if fsync(state.descriptor) != 0 { return .io(path: path, detail: "fsync failed: \(String(cString: strerror(errno)))") }
    state.unsynced = 0
    return nil
  }

  private static func writeAll(_ data: Data, to descriptor: Int32, path: String) -> LogError? {
    data.withUnsafeBytes { buffer -> LogError? in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return .io(path: path, detail: "write failed: \(String(cString: strerror(errno)))")
        }
        offset += written
      }
      return nil
    }
  }
}

/// `open(2)` and `close(2)`, named apart from this type's own `open` and `close`.
private func Glibc_open(_ path: String, _ flags: Int32) -> Int32 { open(path, flags, 0o644) }
private func Glibc_close(_ descriptor: Int32) -> Int32 { close(descriptor) }
