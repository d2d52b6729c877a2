import FSMTool
import Foundation
import FSMCommand
import StateMachine
import StateMachineExamples
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("fsm replay and crash safety")
struct ReplayCLITests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let session = root.appendingPathComponent("Specs/cd-player-session.jsonl").path

  static func temporary(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("fsm-\(name)-\(UInt32.random(in: 0...UInt32.max)).jsonl").path
  }

  @Test("exit 0 when the log replays identically")
  func identical() {
    let result = PackageFSM.run(["replay", "cd-player", Self.session])
    #expect(result.code == 0)
    #expect(result.output.hasSuffix("replayed 22 entries: identical\n"))
  }

  @Test("exit 1 with the divergence report")
  func divergent() throws {
    let path = Self.temporary("divergent")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = try String(contentsOfFile: Self.session, encoding: .utf8)
      .replacingOccurrences(of: #""effects":["storeCDInfo"],"event":"cdDetected","outcome":"transitioned","sequence":3,"state":"stopped""#,
                            with: #""effects":["storeCDInfo"],"event":"cdDetected","outcome":"transitioned","sequence":3,"state":"playing""#)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let result = PackageFSM.run(["replay", "cd-player", path])
    #expect(result.code == 1)
    #expect(result.output.contains("1 divergence\nentry 3 (line 4), event cdDetected:\n  state: expected playing, got stopped"))
  }

  struct Bad: Sendable, CustomTestStringConvertible {
    let label: String
    let content: String?
    let arguments: [String]
    let error: String
    var testDescription: String { label }
  }

  @Test("exit 2 for unreadable input, naming the line", arguments: [
    Bad(label: "torn tail", content: "HEADER\n{\"context\":{},", arguments: [], error: "line 2: torn (14 bytes without a newline)"),
    Bad(label: "not a log", content: "hello\n", arguments: [], error: "line 1: not an fsm-log header"),
    Bad(label: "empty", content: "", arguments: [], error: "the log is empty; expected a header line"),
    Bad(label: "missing file", content: nil, arguments: [], error: "no such file"),
    Bad(label: "unknown machine", content: "", arguments: ["jukebox"], error: "unknown machine 'jukebox'"),
  ])
  func unreadable(_ c: Bad) throws {
    let path = Self.temporary("bad")
    defer { try? FileManager.default.removeItem(atPath: path) }
    if let content = c.content {
      let header = try String(contentsOfFile: Self.session, encoding: .utf8).split(separator: "\n")[0]
      try content.replacingOccurrences(of: "HEADER", with: String(header)).write(toFile: path, atomically: true, encoding: .utf8)
    }
    let result = PackageFSM.run(["replay", c.arguments.first ?? "cd-player", path])
    #expect(result.code == 2)
    #expect(result.errorOutput.contains(c.error), "\(result.errorOutput)")
  }

  /// The `fsm` executable built beside this test bundle.
  static var fsmExecutable: String? {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fsm").path,
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fsm").path,
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("fsm").path,
      root.appendingPathComponent(".build/debug/fsm").path,
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  @Test(
    "a writer killed with SIGKILL 50 times loses no entry it reported durable; the file reopens cleanly (each entry written at once, or in batches of 16)",
    arguments: [0, 16])
  func killTest(batch: Int) throws {
    let fsm = try #require(Self.fsmExecutable, "build the fsm product first (swift build)")
    let path = Self.temporary("kill")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var generator = SplitMix64(seed: 50)
    var lastDurable = 0
    var tornTails = 0
    for round in 1...50 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: fsm)
      process.arguments = ["__log-writer", path, "1000000"] + (batch > 0 ? ["\(batch)"] : [])
      let output = Pipe()
      process.standardOutput = output
      process.standardError = Pipe()
      try process.run()
      // Kill at a random moment: after a random number (1...300) of further durable entries.
      let target = lastDurable + 1 + Int(generator.next() % 300)
      var buffer = Data()
      var reported = lastDurable
      while reported < target {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        buffer += chunk
        while let newline = buffer.firstIndex(of: 0x0A) {
          let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
          buffer.removeSubrange(buffer.startIndex...newline)
          if line.hasPrefix("durable "), let n = Int(line.dropFirst(8)) { reported = n }
        }
      }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal, "round \(round): the writer was killed")
      // Reopen as the next writer would: complete lines kept, a torn tail cut and reported.
      let (file, recovery) = try LogFile.open(at: path)
      try file.close()
      if recovery.truncatedBytes > 0 { tornTails += 1 }
      let read = EventLog<CDPlayer.State, CDPlayer.Event, NoContext, CDPlayer.Action>.read(
        try Data(contentsOf: URL(fileURLWithPath: path)), for: CDPlayer.table)
      #expect(read.error == nil, "round \(round): \(String(describing: read.error))")
      let entries = read.log?.entries.count ?? 0
      #expect(entries >= reported, "round \(round): \(reported) reported durable, \(entries) in the file")
      #expect(CDPlayer.table.replay(try #require(read.log)).isIdentical, "round \(round)")
      lastDurable = entries
    }
    #expect(lastDurable >= 50)
    print("kill test (batch \(batch)): 50 kills, \(lastDurable) entries kept, \(tornTails) torn tails cut")
  }

  @Test("a writer killed while it creates its log leaves no file or a whole log, never an empty or torn one")
  func killDuringCreation() throws {
    let fsm = try #require(Self.fsmExecutable, "build the fsm product first (swift build)")
    let directory = FileManager.default.temporaryDirectory.path + "/fsm-create-kill-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var generator = SplitMix64(seed: 3)
    var (absent, whole) = (0, 0)
    for round in 1...40 {
      let path = directory + "/log-\(round).jsonl"
      let process = Process()
      process.executableURL = URL(fileURLWithPath: fsm)
      process.arguments = ["__log-writer", path, "3"]
      process.standardOutput = Pipe()
      process.standardError = Pipe()
      try process.run()
      usleep(UInt32(generator.next() % 40_000))  // somewhere in start-up, creation, or the first appends
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      guard FileManager.default.fileExists(atPath: path) else {
        absent += 1
        continue
      }
      let read = EventLog<CDPlayer.State, CDPlayer.Event, NoContext, CDPlayer.Action>.read(
        contentsOf: path, for: CDPlayer.table)
      #expect(read.log != nil, "round \(round): \(String(describing: read.error))")
      if case .tornTail? = read.error {} else { #expect(read.error == nil, "round \(round)") }
      let (file, _) = try LogFile.open(at: path)  // and it resumes
      try file.close()
      whole += 1
    }
    print("creation kill test: \(absent) rounds before the file existed, \(whole) with a whole log")
  }

  @Test("resuming a file that is not a log leaves it untouched, and says why", arguments: [#"{"a":1}"#, "{\"a\":1}\n", ""])
  func writerRefusesNonLog(_ content: String) throws {
    let fsm = try #require(Self.fsmExecutable, "build the fsm product first (swift build)")
    let path = Self.temporary("data")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(content.utf8).write(to: URL(fileURLWithPath: path))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: fsm)
    process.arguments = ["__log-writer", path, "1"]
    let errors = Pipe()
    process.standardOutput = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus != 0)
    #expect(message.contains("line 1") || message.contains("empty"), "\(message)")
    #expect(FileManager.default.contents(atPath: path) == Data(content.utf8))
  }
}
