import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The append-only file a ``LogRecorder`` writes, with a stated durability policy (chosen where
/// the recorder is made, or with a store's `record(to:durability:onError:)`). Its operations are
/// the recorder's, not API; this type names the policy (``Durability``) and what reopening found
/// (``Recovery``).
///
/// Each line is written with a single `write(2)`: once `append(_:)` returns, the line is in
/// the kernel and survives the process being killed (with ``Durability/batched(_:)``, lines are
/// written a batch at a time: a killed process loses the batch not yet written). Against power loss a line is durable once
/// it is synced (`fsync`): after every entry, every N entries, or on `sync()`, by policy; and
/// always on `close()`.
///
/// What the file never suffers:
/// - **A failed append leaves no partial line.** When a write fails (a full disk, a quota) or
///   its sync fails, the file is cut back to its last complete line before `append(_:)`
///   throws, so the next append, once there is room, yields a readable log. If even that cut
///   fails, the file refuses every further append until it is reopened with
///   `open(at:durability:)` (which cuts the partial line then).
/// - **Creation is atomic.** `create(at:header:durability:)` writes the header to a new
///   temporary file beside `path` and links it into place only once the header is synced: a
///   writer killed at any moment leaves either no file or a log with its complete header. It
///   never replaces an existing file.
/// - **Reopening touches only logs.** `open(at:durability:)` reads the file first and changes
///   nothing unless its first line is an `fsm-log` header; then it cuts only a torn tail (bytes
///   after the last newline, from a writer that died mid-line).
///
/// The descriptor is closed by `close()`, or when the value is released.
public final class LogFile: Sendable {
  /// When lines are synced to stable storage.
  ///
  /// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
  /// case is then a warning, not a build error).
  public enum Durability: Hashable, Sendable {
    /// `fsync` after every line: slowest, nothing lost on power loss.
    case everyEntry
    /// `fsync` after every `n` lines.
    case every(Int)
    /// `fsync` only when the log is closed (``LogRecorder/close()``).
    case onDemand
    /// Lines are kept and written `n` at a time, with one `write(2)` for all of them, and synced
    /// only when the log is closed (``LogRecorder/close()``): the fastest policy, for a server that
    /// records many sessions. A process that is killed (or a machine that loses power) loses at
    /// most the last `n − 1` lines appended; the file still holds complete lines only. A write
    /// that fails loses the lines it held, and its error says how many.
    case batched(Int)
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
    /// Bytes of complete lines: where the file is cut back to when an append fails.
    var size: Int
    var unsynced = 0
    var closed = false
    /// Lines appended and not written yet (``Durability/batched(_:)``), and how many.
    var pending: [UInt8] = []
    var pendingLines = 0
    /// Why appends are refused: a failed append whose partial line could not be cut off.
    var broken: String?
  }

  /// The file's path.
  @usableFromInline package let path: String
  @usableFromInline let durability: Durability
  let io: LogFileIO
  let state: Locked<State>

  private init(path: String, descriptor: Int32, size: Int, durability: Durability, io: LogFileIO) {
    self.path = path
    self.durability = durability
    self.io = io
    state = Locked(State(descriptor: descriptor, size: size))
  }

  deinit {
    state.withLock { state in
      guard !state.closed else { return }
      // Lines appended are written, as far as they can be, before the descriptor goes.
      _ = flush(&state)
      _ = systemClose(state.descriptor)
    }
  }

  /// Creates the file at `path`, atomically, holding `header` (a complete line).
  ///
  /// - Throws: ``LogError/alreadyExists(path:)`` when something exists at `path` (it is left
  ///   as it is), or ``LogError/io(path:detail:)``.
  package static func create(at path: String, header: Data, durability: Durability = .everyEntry) throws(LogError) -> LogFile {
    try create(at: path, header: header, durability: durability, io: .system)
  }

  static func create(at path: String, header: Data, durability: Durability, io: LogFileIO) throws(LogError) -> LogFile {
    let (directory, name) = split(path)
    let temporary = directory + "/." + name + ".creating-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = systemOpen(temporary, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC)
    guard descriptor >= 0 else { throw .io(path: path, detail: "cannot create: \(String(cString: strerror(errno)))") }
    defer { _ = unlink(temporary) }  // the name only; once linked, `path` names the file
    let file = LogFile(path: path, descriptor: descriptor, size: 0, durability: .everyEntry, io: io)
    try file.append(header)
    guard link(temporary, path) == 0 else {
      let error = errno
      try? file.close()
      if error == EEXIST { throw .alreadyExists(path: path) }
      throw .io(path: path, detail: "cannot create: \(String(cString: strerror(error)))")
    }
    syncDirectory(directory)
    return LogFile(path: path, descriptor: file.takeDescriptor(), size: header.count, durability: durability, io: io)
  }

  /// Opens an existing log to append to it: keeps every complete line, cuts a torn tail.
  ///
  /// The file is read first, as a stream; it is changed only when its first line is an
  /// `fsm-log` header of a format version it reads. Anything else — a file that is not a log, an
  /// empty file, a header without its newline — is refused and left exactly as it was.
  ///
  /// - Throws: ``LogError``: `.io` when the path is not a readable regular file; `.empty`,
  ///   `.notALog`, `.tornTail(line: 1, …)` or `.unsupportedVersion` for what is not a log.
  package static func open(at path: String, durability: Durability = .everyEntry) throws(LogError) -> (LogFile, Recovery) {
    try open(at: path, durability: durability, io: .system)
  }

  static func open(at path: String, durability: Durability, io: LogFileIO) throws(LogError) -> (LogFile, Recovery) {
    let lines = try FileLines.open(path)
    guard let first = try lines.next() else { throw .empty }
    _ = try LogHeaderProbe.check(first)
    var count = 1
    var torn = 0
    while let line = try lines.next() {
      if line.torn { torn = line.length } else { count += 1 }
    }
    let kept = lines.completeBytes
    let descriptor = systemOpen(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard descriptor >= 0 else { throw .io(path: path, detail: "cannot open for writing: \(String(cString: strerror(errno)))") }
    if torn > 0 {
      guard ftruncate(descriptor, off_t(kept)) == 0, fsync(descriptor) == 0 else {
        let error = errno
        _ = systemClose(descriptor)
        throw .io(path: path, detail: "cannot cut the torn tail: \(String(cString: strerror(error)))")
      }
    }
    let file = LogFile(path: path, descriptor: descriptor, size: kept, durability: durability, io: io)
    return (file, Recovery(lines: count, truncatedBytes: torn))
  }

  /// Appends one complete line (it must end with a newline) with a single write (or, with
  /// ``Durability/batched(_:)``, keeps it for the batch's write).
  ///
  /// - Throws: ``LogError/io(path:detail:)`` when the line could not be written or synced; the
  ///   file then ends at its last complete line, as before the call.
  package func append(_ line: Data) throws(LogError) {
    if let failed = line.withUnsafeBytes({ bytes in append(bytes) }) { throw failed.error }
  }

  /// `append(_:)` for a line in `bytes` (no `Data` made: a recorder's line buffer); on
  /// failure, the error and how many lines it lost: this one, and with
  /// ``Durability/batched(_:)`` the others of its batch.
  @usableFromInline
  func append(bytes: [UInt8]) -> (error: LogError, lines: Int)? {
    bytes.withUnsafeBytes { bytes in append(bytes) }
  }

  /// Lines appended and not written yet (always 0 unless the policy is ``Durability/batched(_:)``).
  var pendingLines: Int { state.withLock { $0.pendingLines } }

  /// Writes the lines a batch holds now.
  func flush() throws(LogError) {
    let error: LogError? = state.withLock { state in state.closed ? nil : flush(&state) }
    if let error { throw error }
  }

  private func append(_ line: UnsafeRawBufferPointer) -> (error: LogError, lines: Int)? {
    state.withLock { state in
      guard !state.closed else { return (.io(path: path, detail: "the log is closed"), 1) }
      if let broken = state.broken {
        return (.io(path: path, detail: "an earlier append failed and its partial line could not be cut off (\(broken)); reopen the log to continue"), 1)
      }
      if case .batched(let n) = durability {
        state.pending.append(contentsOf: line)
        state.pendingLines += 1
        let lines = state.pendingLines
        guard lines >= max(1, n), let error = flush(&state) else { return nil }
        return (error, lines)
      }
      if let failure = io.writeAll(line, to: state.descriptor) {
        return (rollBack(&state, failure: "write failed: \(failure)"), 1)
      }
      state.unsynced += 1
      let mustSync: Bool =
        switch durability {
        case .everyEntry: true
        case .every(let n): state.unsynced >= max(1, n)
        case .onDemand, .batched: false
        }
      if mustSync, io.fsync(state.descriptor) != 0 {
        // What reached the disk is unknown: cut this line off, and refuse more until reopened.
        let failure = "fsync failed: \(String(cString: strerror(errno)))"
        let error = rollBack(&state, failure: failure)
        if state.broken == nil { state.broken = failure }
        return (error, 1)
      }
      if mustSync { state.unsynced = 0 }
      state.size += line.count
      return nil
    }
  }

  /// Writes the batch's lines with one write; on failure they are gone, and the file is cut
  /// back to its last complete line.
  private func flush(_ state: inout State) -> LogError? {
    guard state.pendingLines > 0 else { return nil }
    let lines = state.pendingLines
    defer {
      state.pending.removeAll(keepingCapacity: true)
      state.pendingLines = 0
    }
    let failure = state.pending.withUnsafeBytes { io.writeAll($0, to: state.descriptor) }
    if let failure {
      return rollBack(&state, failure: "write failed: \(failure) (the \(lines) line\(lines == 1 ? "" : "s") of the batch are not in the log)")
    }
    state.unsynced += lines
    state.size += state.pending.count
    return nil
  }

  /// Cuts the file back to its last complete line after a failed append, and returns the error
  /// to throw; when the cut itself fails, appends are refused from now on.
  private func rollBack(_ state: inout State, failure: String) -> LogError {
    if ftruncate(state.descriptor, off_t(state.size)) == 0 {
      return .io(path: path, detail: failure + "; the log still ends at its last complete line")
    }
    let cut = String(cString: strerror(errno))
    state.broken = failure
    return .io(path: path, detail: failure + "; cutting the partial line off failed too (\(cut)): reopen the log to continue")
  }

  /// Syncs every line written so far to stable storage.
  package func sync() throws(LogError) {
    let error: LogError? = state.withLock { state in
      guard !state.closed else { return nil }
      if let failed = flush(&state) { return failed }
      if io.fsync(state.descriptor) != 0 { return .io(path: path, detail: "fsync failed: \(String(cString: strerror(errno)))") }
      state.unsynced = 0
      return nil
    }
    if let error { throw error }
  }

  /// Syncs and closes the file. Appending afterwards is an error.
  package func close() throws(LogError) {
    let error: LogError? = state.withLock { state in
      guard !state.closed else { return nil }
      state.closed = true
      let flushed = flush(&state)
      let synced = io.fsync(state.descriptor) == 0
      let reason = String(cString: strerror(errno))
      _ = systemClose(state.descriptor)
      return flushed ?? (synced ? nil : .io(path: path, detail: "fsync failed: \(reason)"))
    }
    if let error { throw error }
  }

  /// Hands the descriptor over to another value (this one will not close it).
  private func takeDescriptor() -> Int32 {
    state.withLock { state in
      state.closed = true
      return state.descriptor
    }
  }

  /// The directory and the file name of `path`.
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  /// Makes a new name in `directory` durable (best effort: some file systems refuse it).
  static func syncDirectory(_ directory: String) {
    let descriptor = systemOpen(directory, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    _ = systemClose(descriptor)
  }
}

/// The system calls a ``LogFile`` writes with: the real ones, or, in tests, ones that fail the
/// way a full disk does (a short write, then `ENOSPC`).
struct LogFileIO: Sendable {
  /// `write(2)`: bytes written, or -1 with `errno` set.
  var write: @Sendable (Int32, UnsafeRawPointer, Int) -> Int
  /// `fsync(2)`: 0, or -1 with `errno` set.
  var fsync: @Sendable (Int32) -> Int32

  static let system = LogFileIO(
    write: { descriptor, bytes, count in systemWrite(descriptor, bytes, count) },
    fsync: { descriptor in systemFsync(descriptor) })

  /// Writes all of `buffer`, retrying short writes; the reason on failure.
  func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> String? {
    guard let base = buffer.baseAddress else { return nil }
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, base + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return String(cString: strerror(errno))
      }
      if written == 0 { return "the write made no progress" }
      offset += written
    }
    return nil
  }
}
