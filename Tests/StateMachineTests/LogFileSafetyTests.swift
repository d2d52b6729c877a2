import Foundation
@testable import StateMachine
import StateMachineExamples
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A fault a test turns on and off: the log file's writes and syncs fail like a full disk's.
final class DiskFault: Sendable {
  enum Mode: Sendable { case none, shortWriteThenFull, full, fsyncFails }
  private let mode = Mutex(Mode.none)

  func set(_ new: Mode) { mode.withLock { $0 = new } }

  var io: LogFileIO {
    LogFileIO(
      write: { [self] descriptor, bytes, count in
        switch mode.withLock({ $0 }) {
        case .none, .fsyncFails:
          return LogFileIO.system.write(descriptor, bytes, count)
        case .shortWriteThenFull:
          // Half the line reaches the file; then the disk is full.
          set(.full)
          return LogFileIO.system.write(descriptor, bytes, max(1, count / 2))
        case .full:
          errno = ENOSPC
          return -1
        }
      },
      fsync: { [self] descriptor in
        if mode.withLock({ $0 }) == .fsyncFails {
          errno = EIO
          return -1
        }
        return LogFileIO.system.fsync(descriptor)
      })
  }
}

func temporaryPath(_ name: String, in directory: String = FileManager.default.temporaryDirectory.path) -> String {
  directory + "/fsm-\(name)-\(UInt32.random(in: 0...UInt32.max)).jsonl"
}

func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// The number of descriptors this process has open.
func openDescriptorCount() -> Int {
  (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
}

@Suite("Log files: never lost or damaged")
struct LogFileSafetyTests {
  typealias Recorder = LogRecorder<CDPlayer.State, CDPlayer.Event, NoContext, CDPlayer.Action>

  static func record(_ recorder: Recorder, _ machine: inout Machine<CDPlayer.State, CDPlayer.Event, NoContext, CDPlayer.Action>, count: Int) throws {
    for _ in 0..<count {
      let event = CDPlayer.benchmarkCycle[recorder.count % CDPlayer.benchmarkCycle.count]
      try recorder.send(event, to: &machine)
    }
  }

  /// Reads the file back: it must be a whole log of `count` entries that replays identically.
  static func expectReadable(_ path: String, entries count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let read = CDLog.read(try #require(contents(path)), for: CDPlayer.table)
    #expect(read.error == nil, "\(String(describing: read.error))", sourceLocation: sourceLocation)
    let log = try #require(read.log, sourceLocation: sourceLocation)
    #expect(log.entries.map(\.sequence) == Array(1..<(count + 1)), sourceLocation: sourceLocation)
    #expect(CDPlayer.table.replay(log).isIdentical, sourceLocation: sourceLocation)
  }

  struct FaultCase: Sendable, CustomTestStringConvertible {
    let label: String
    let mode: DiskFault.Mode
    /// Whether the writer goes on after the fault clears, or refuses until reopened.
    let goesOn: Bool
    var testDescription: String { label }
  }

  @Test("a failed append leaves the file at its last complete line, and the log stays readable", arguments: [
    FaultCase(label: "short write, then ENOSPC", mode: .shortWriteThenFull, goesOn: true),
    FaultCase(label: "ENOSPC before any byte", mode: .full, goesOn: true),
    FaultCase(label: "fsync fails (EIO)", mode: .fsyncFails, goesOn: false),
  ])
  func failedAppend(_ c: FaultCase) throws {
    let path = temporaryPath("fault")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fault = DiskFault()
    let recorder = try Recorder(
      table: CDPlayer.table, state: .empty, context: NoContext(), file: path, durability: .everyEntry, clock: nil,
      io: fault.io)
    var machine = Machine(CDPlayer.table)
    try Self.record(recorder, &machine, count: 3)
    let before = try #require(contents(path))

    fault.set(c.mode)
    #expect(throws: LogError.self) { try Self.record(recorder, &machine, count: 1) }
    fault.set(.none)
    #expect(contents(path) == before, "the failed line left nothing behind")
    #expect(recorder.log.entries.count == 3, "the failed entry was not recorded")

    if c.goesOn {
      try Self.record(recorder, &machine, count: 2)
      try recorder.close()
      try Self.expectReadable(path, entries: 5)
    } else {
      // What reached the disk is unknown after a failed fsync: appends are refused until reopened.
      #expect(throws: LogError.self) { try Self.record(recorder, &machine, count: 1) }
      try recorder.close()
      let resumed = try Recorder(resuming: path, table: CDPlayer.table)
      var again = try Machine(CDPlayer.table, state: resumed.lastSnapshot.state, context: NoContext())
      try Self.record(resumed, &again, count: 2)
      try resumed.close()
      try Self.expectReadable(path, entries: 5)
    }
  }

  @Test("on a real full file system (a 64 KiB tmpfs), the log stays readable through ENOSPC", .enabled(if: SmallFileSystem.canMount))
  func realFullFileSystem() throws {
    let disk = try SmallFileSystem(kilobytes: 64)
    defer { disk.remove() }
    let path = disk.path + "/session.jsonl"
    let recorder = try Recorder(table: CDPlayer.table, state: .empty, context: NoContext(), file: path, durability: .everyEntry)
    var machine = Machine(CDPlayer.table)
    try Self.record(recorder, &machine, count: 2)
    try disk.fill()
    var failures = 0
    for _ in 0..<200 {
      do { try Self.record(recorder, &machine, count: 1) } catch { failures += 1 }
    }
    #expect(failures > 0, "the file system filled up")
    let kept = recorder.log.entries.count
    try Self.expectReadable(path, entries: kept)
    disk.freeSpace()
    try Self.record(recorder, &machine, count: 3)
    try recorder.close()
    try Self.expectReadable(path, entries: kept + 3)
    let resumed = try Recorder(resuming: path, table: CDPlayer.table)
    #expect(resumed.recovery?.truncatedBytes == 0)
    try resumed.close()
  }

  struct NotALog: Sendable, CustomTestStringConvertible {
    let label: String
    let content: String
    let error: LogError
    var testDescription: String { label }
  }

  static let notLogs: [NotALog] = [
    NotALog(label: "a JSON object without a newline", content: #"{"a":1}"#, error: .tornTail(line: 1, bytes: 7)),
    NotALog(label: "a JSON object", content: "{\"a\":1}\n", error: .notALog(line: 1)),
    NotALog(label: "two lines of text", content: "hello\nworld", error: .notALog(line: 1)),
    NotALog(label: "an empty file", content: "", error: .empty),
    NotALog(
      label: "another format's header with a torn second line", content: "{\"format\":\"csv\",\"version\":1}\n{\"x\"",
      error: .notALog(line: 1)),
    NotALog(
      label: "another machine's log",
      content: "{\"context\":{},\"fingerprint\":\"f\",\"format\":\"fsm-log\",\"machine\":\"jukebox\",\"state\":\"empty\",\"version\":1}\n{\"x\"",
      error: .otherMachine(line: 1, found: "jukebox", expected: "cd-player")),
  ]

  @Test("resuming a file that is not this machine's log throws and leaves it byte for byte", arguments: notLogs)
  func resumeRefusesWhatIsNotALog(_ c: NotALog) throws {
    let path = temporaryPath("notalog")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(c.content.utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: c.error) { try Recorder(resuming: path, table: CDPlayer.table) }
    #expect(contents(path) == Data(c.content.utf8))
    // The low-level reopen refuses it too (it checks the header, not the machine).
    if case .otherMachine = c.error {} else {
      #expect(throws: LogError.self) { try LogFile.open(at: path) }
      #expect(contents(path) == Data(c.content.utf8))
    }
  }

  @Test("a log with a bad line in the middle is refused and left as it is; only a torn tail is ever cut")
  func resumeRefusesABadMiddleLine() throws {
    let path = temporaryPath("badmiddle")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var lines = try cdSession(3).encoded().split(separator: 0x0A).map { Data($0) }
    lines[2] = Data("garbage".utf8)
    let content = Data(lines.joined(separator: [0x0A])) + Data("\n{\"torn".utf8)
    try content.write(to: URL(fileURLWithPath: path))
    #expect(throws: LogError.self) { try Recorder(resuming: path, table: CDPlayer.table) }
    #expect(contents(path) == content)
  }

  @Test("creating a log never replaces an existing file")
  func createNeverReplaces() throws {
    let path = temporaryPath("exists")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let precious = Data("precious data\n".utf8)
    try precious.write(to: URL(fileURLWithPath: path))
    #expect(throws: LogError.alreadyExists(path: path)) {
      try Recorder(table: CDPlayer.table, state: .empty, context: NoContext(), file: path)
    }
    #expect(contents(path) == precious)
  }

  @Test("a creation that fails leaves no file behind, not even a temporary one")
  func failedCreationLeavesNothing() throws {
    let directory = FileManager.default.temporaryDirectory.path + "/fsm-create-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/session.jsonl"
    let fault = DiskFault()
    fault.set(.shortWriteThenFull)
    #expect(throws: LogError.self) {
      try Recorder(table: CDPlayer.table, state: .empty, context: NoContext(), file: path, durability: .everyEntry, clock: nil, io: fault.io)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }

  @Test("no descriptor leaks: failed resumes, and log files dropped without close()")
  func noDescriptorLeaks() throws {
    let path = temporaryPath("leak")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data("not a log\n".utf8).write(to: URL(fileURLWithPath: path))
    let validPath = temporaryPath("leak-valid")
    defer { try? FileManager.default.removeItem(atPath: validPath) }
    try Recorder(table: CDPlayer.table, state: .empty, context: NoContext(), file: validPath).close()
    let before = openDescriptorCount()
    for _ in 0..<300 {
      _ = try? Recorder(resuming: path, table: CDPlayer.table)
      _ = try LogFile.open(at: validPath)  // dropped without close()
      _ = try Recorder(resuming: validPath, table: CDPlayer.table)  // likewise
    }
    // Other tests run meanwhile and open files too: a leak here would be 600 or more.
    #expect(openDescriptorCount() - before < 100, "descriptors leaked")
  }
}

/// A small tmpfs mounted for one test (root only): a real file system that fills up.
struct SmallFileSystem {
  let path: String

  static let canMount: Bool = {
    guard geteuid() == 0, let disk = try? SmallFileSystem(kilobytes: 16) else { return false }
    disk.remove()
    return true
  }()

  init(kilobytes: Int) throws {
    path = FileManager.default.temporaryDirectory.path + "/fsm-tmpfs-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path]) else {
      try? FileManager.default.removeItem(atPath: path)
      throw CocoaError(.fileWriteNoPermission)
    }
  }

  var filler: String { path + "/filler" }

  /// Writes a filler file until the file system is full.
  func fill() throws {
    let descriptor = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(descriptor) }
    let block = [UInt8](repeating: 0x2E, count: 512)
    while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
  }

  func freeSpace() { _ = unlink(filler) }

  func remove() {
    _ = Self.run("/bin/umount", [path])
    try? FileManager.default.removeItem(atPath: path)
  }

  static func run(_ tool: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
