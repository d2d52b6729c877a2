import Foundation

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
    if let newline = data[offset...].firstIndex(of: 0x0A) {
      defer { offset = newline + 1 }
      return LogLine(number: number, bytes: data[offset..<newline], length: newline - offset, torn: false)
    }
    defer { offset = data.endIndex }
    return LogLine(number: number, bytes: data[offset...], length: data.endIndex - offset, torn: true)
  }
}

/// The lines of a log file, read in chunks. A line longer than the limit is counted to its end
/// without being kept.
@usableFromInline
final class FileLines {
  let file: InputFile
  var buffer: [UInt8] = []
  /// Where the unread part of `buffer` starts.
  var head = 0
  var atEnd = false
  var number = 0
  static let chunk = 64 * 1024

  /// Bytes of complete lines read so far: where a torn tail starts.
  private(set) var completeBytes = 0

  init(file: InputFile) { self.file = file }

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
    var scanned = 0  // bytes after `head` known to hold no newline
    while true {
      if let newline = buffer[(head + scanned)...].firstIndex(of: 0x0A) {
        number += 1
        let line = LogLine(
          number: number, bytes: Data(buffer[head..<newline]), length: newline - head, torn: false)
        completeBytes += newline - head + 1
        head = newline + 1
        return line
      }
      scanned = buffer.count - head
      if buffer.count - head > LogLine.maxLength { return try skipLongLine() }
      if atEnd {
        guard head < buffer.count else { return nil }
        number += 1
        defer { head = buffer.count }
        return LogLine(number: number, bytes: Data(buffer[head...]), length: buffer.count - head, torn: true)
      }
      try fill()
    }
  }

  /// Reads the next chunk, dropping the consumed part of the buffer first.
  private func fill() throws(LogError) {
    if head > 0 {
      buffer.removeSubrange(..<head)
      head = 0
    }
    let start = buffer.count
    buffer += repeatElement(0, count: Self.chunk)
    let read = buffer.withUnsafeMutableBytes { all in
      Result { () throws(InputFile.Refusal) in try file.read(into: UnsafeMutableRawBufferPointer(rebasing: all[start...])) }
    }
    guard case .success(let count) = read else {
      buffer.removeSubrange(start...)
      if case .failure(let refusal) = read { throw .io(path: file.path, detail: refusal.reason) }
      return
    }
    buffer.removeSubrange((start + count)...)
    if count == 0 { atEnd = true }
  }

  /// The line under the cursor is longer than the limit: count it to its end, keeping nothing.
  private func skipLongLine() throws(LogError) -> LogLine {
    number += 1
    var length = buffer.count - head
    buffer = []
    head = 0
    while true {
      try fill()
      if let newline = buffer.firstIndex(of: 0x0A) {
        length += newline
        head = newline + 1
        return LogLine(number: number, bytes: Data(), length: length, torn: false)
      }
      length += buffer.count
      buffer = []
      if atEnd { return LogLine(number: number, bytes: Data(), length: length, torn: true) }
    }
  }
}
