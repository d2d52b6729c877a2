#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A regular file opened for reading. Anything else (a directory, a FIFO, a device, a socket)
/// is refused when it is opened, with its own reason, before a byte is read: opening never
/// blocks (a FIFO without a writer would), and reading never starts on an endless device.
///
/// The descriptor is closed when the value is released.
final class InputFile {
  let path: String
  let descriptor: Int32
  /// The file's size when it was opened.
  let size: Int

  /// Why a path cannot be read as a file: one sentence, without the path.
  struct Refusal: Error, Hashable {
    let reason: String
  }

  init(path: String) throws(Refusal) {
    self.path = path
    let descriptor = systemOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw Refusal(reason: Self.reason(errno)) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let error = errno
      _ = systemClose(descriptor)
      throw Refusal(reason: Self.reason(error))
    }
    if let refusal = Self.refusal(mode: status.st_mode) {
      _ = systemClose(descriptor)
      throw refusal
    }
    self.descriptor = descriptor
    size = Int(status.st_size)
  }

  deinit { _ = systemClose(descriptor) }

  /// Reads up to `buffer.count` bytes; 0 at the end of the file.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(Refusal) -> Int {
    while true {
      let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      if errno == EINTR { continue }
      throw Refusal(reason: "cannot read: \(String(cString: strerror(errno)))")
    }
  }

  /// The whole file, refused when it is larger than `limit` bytes (checked before reading, and
  /// again while reading, for files that grow).
  func readAll(limit: Int) throws(Refusal) -> [UInt8] {
    guard size <= limit else { throw Self.tooLarge(size, limit: limit) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = try chunk.withUnsafeMutableBytes { buffer in Result { () throws(Refusal) in try read(into: buffer) } }.get()
      if count == 0 { return bytes }
      guard bytes.count + count <= limit else { throw Self.tooLarge(bytes.count + count, limit: limit) }
      bytes += chunk[..<count]
    }
  }

  static func tooLarge(_ size: Int, limit: Int) -> Refusal {
    Refusal(reason: "is \(size) bytes or more; expected at most \(limit)")
  }

  static func refusal(mode: mode_t) -> Refusal? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: Refusal(reason: "is a directory; expected a file")
    case S_IFIFO: Refusal(reason: "is a named pipe (FIFO); expected a regular file")
    case S_IFCHR, S_IFBLK: Refusal(reason: "is a device; expected a regular file")
    case S_IFSOCK: Refusal(reason: "is a socket; expected a regular file")
    default: Refusal(reason: "is not a regular file")
    }
  }

  static func reason(_ error: Int32) -> String {
    switch error {
    case ENOENT: "no such file"
    case EACCES, EPERM: "permission denied: cannot read the file"
    case ENOTDIR: "a component of the path is not a directory"
    case ELOOP: "too many symbolic links"
    case ENAMETOOLONG: "the path is too long"
    default: "cannot open: \(String(cString: strerror(error)))"
    }
  }
}

/// `open(2)`, `read(2)`, `close(2)`, `write(2)` and `fsync(2)`, named apart from methods of the same names.
func systemOpen(_ path: String, _ flags: Int32, mode: mode_t = 0o644) -> Int32 { open(path, flags, mode) }
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(descriptor, bytes, count) }
func systemFsync(_ descriptor: Int32) -> Int32 { fsync(descriptor) }
