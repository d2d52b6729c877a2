import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One line of a log, as the readers hand it on.
@usableFromInline
struct LogLine {
  /// Counted from 1.
  @usableFromInline var number: Int
  /// The line without its newline (empty when the line is too long to keep).
  @usableFromInline var bytes: Data
  /// The line's length in bytes.
  @usableFromInline var length: Int
  /// No newline ended it: the writer stopped mid-line.
  @usableFromInline var torn: Bool
  /// It is a child's step (a system's log: ``ChildLogLine``), not an entry: seen where the
  /// bytes are read, before they become `Data`.
  @usableFromInline var isChild = false

  /// The longest line the reader accepts, in bytes.
  @usableFromInline static var maxLength: Int { 1 << 20 }

  /// Why this line cannot be read at all (too long, or torn), if it cannot.
  @usableFromInline
  var problem: LogError? {
    if length > Self.maxLength { return .lineTooLong(line: number, length: length, limit: Self.maxLength) }
    if torn { return .tornTail(line: number, bytes: length) }
    return nil
  }
}

/// Where a reader's lines come from: bytes in memory, or a file read as a stream in constant
/// memory (one line of at most ``LogLine/maxLength`` bytes is held at a time).
@usableFromInline
enum LogLines {
  case memory(MemoryLines)
  case file(FileLines)

  @usableFromInline
  mutating func next() throws(LogError) -> LogLine? {
    switch self {
    case .memory(var lines):
      let line = lines.next()
      self = .memory(lines)
      return line
    case .file(let lines):
      return try lines.next()
    }
  }
}

/// The lines of a log in memory.
@usableFromInline
struct MemoryLines {
  @usableFromInline let data: Data
  @usableFromInline var offset: Data.Index
  @usableFromInline var number = 0

  @usableFromInline
  init(data: Data) {
    self.data = data
    offset = data.startIndex
  }

  @usableFromInline
  mutating func next() -> LogLine? {
    guard offset < data.endIndex else { return nil }
    number += 1
    // memchr over the bytes: `Data`'s generic `firstIndex(of:)` checked exclusivity per call
    // and was most of the reader's time.
    let from = offset
    var isChild = false
    let found: Data.Index? = data.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return nil }
      let start = from - data.startIndex
      isChild = ChildLogLine.starts(UnsafeRawBufferPointer(rebasing: raw[start...]))
      return memchr(base + start, 0x0A, raw.count - start).map { data.startIndex + (UnsafeRawPointer($0) - base) }
    }
    if let newline = found {
      defer { offset = newline + 1 }
      var line = LogLine(number: number, bytes: data[offset..<newline], length: newline - offset, torn: false)
      line.isChild = isChild
      return line
    }
    defer { offset = data.endIndex }
    return LogLine(number: number, bytes: data[offset...], length: data.endIndex - offset, torn: true)
  }
}

/// The lines of a log file, read in chunks into one buffer. A line longer than the limit is
/// counted to its end without being kept.
@usableFromInline
final class FileLines {
  let file: InputFile
  /// Bytes `head..<tail` of `storage` are read and not yet handed on.
  private var storage: UnsafeMutableRawBufferPointer
  private var head = 0
  private var tail = 0
  private var atEnd = false
  private var number = 0
  static let chunk = 64 * 1024

  /// Bytes of complete lines read so far: where a torn tail starts.
  private(set) var completeBytes = 0

  init(file: InputFile) {
    self.file = file
    storage = .allocate(byteCount: Self.chunk, alignment: 1)
  }

  deinit { storage.deallocate() }

  /// Opens `path` for reading, refusing what is not a regular file.
  @usableFromInline
  static func open(_ path: String) throws(LogError) -> FileLines {
    do {
      return FileLines(file: try InputFile(path: path))
    } catch {
      throw .io(path: path, detail: error.reason)
    }
  }

  @usableFromInline
  func next() throws(LogError) -> LogLine? {
    var scanned = head  // bytes before this offset hold no newline
    while true {
      if let newline = firstNewline(from: scanned) {
        number += 1
        var line = LogLine(number: number, bytes: bytes(head, newline), length: newline - head, torn: false)
        line.isChild = ChildLogLine.starts(UnsafeRawBufferPointer(rebasing: storage[head..<newline]))
        completeBytes += newline - head + 1
        head = newline + 1
        return line
      }
      if tail - head > LogLine.maxLength { return try skipLongLine() }
      if atEnd {
        guard head < tail else { return nil }
        number += 1
        defer { head = tail }
        return LogLine(number: number, bytes: bytes(head, tail), length: tail - head, torn: true)
      }
      scanned = tail - head  // offsets shift when the buffer is compacted
      try fill()
      scanned += head
    }
  }

  private func bytes(_ start: Int, _ end: Int) -> Data {
    Data(bytes: storage.baseAddress! + start, count: end - start)
  }

  private func firstNewline(from start: Int) -> Int? {
    guard start < tail, let found = memchr(storage.baseAddress! + start, 0x0A, tail - start) else { return nil }
    return storage.baseAddress!.distance(to: found)
  }

  /// Reads the next chunk: the unread bytes move to the front, and the buffer grows when full.
  private func fill() throws(LogError) {
    if head > 0 {
      if tail > head { memmove(storage.baseAddress!, storage.baseAddress! + head, tail - head) }
      tail -= head
      head = 0
    }
    if storage.count - tail < Self.chunk / 2 {
      let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 1)
      if tail > 0 { larger.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: tail) }
      storage.deallocate()
      storage = larger
    }
    do {
      let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[tail...]))
      tail += count
      if count == 0 { atEnd = true }
    } catch {
      throw .io(path: file.path, detail: error.reason)
    }
  }

  /// The line under the cursor is longer than the limit: count it to its end, keeping nothing.
  private func skipLongLine() throws(LogError) -> LogLine {
    number += 1
    var length = tail - head
    (head, tail) = (0, 0)
    while true {
      try fill()
      if let newline = firstNewline(from: 0) {
        length += newline
        head = newline + 1
        return LogLine(number: number, bytes: Data(), length: length, torn: false)
      }
      length += tail
      (head, tail) = (0, 0)
      if atEnd { return LogLine(number: number, bytes: Data(), length: length, torn: true) }
    }
  }
}
