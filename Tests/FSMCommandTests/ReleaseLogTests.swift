import FSMCommand
import FSMTool
import Foundation
import Testing

/// Logs recorded by release 0.1.0 (`fsm demo <machine> --record`, at the release commit the
/// changelog names) must replay identically on every later version: a user's logs from the
/// field outlive the release that wrote them. A change that cannot keep them replaying is a
/// breaking change and says so in the changelog.
@Suite("Logs written by 0.1.0 still replay")
struct ReleaseLogTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/0.1.0")

  /// Every shipped machine with a demo, table and chart.
  static let machines = ["login", "loader", "captcha", "registration", "phone-login", "radio", "name-length", "counter"]

  @Test("a 0.1.0 session log replays identically", arguments: machines)
  func replays(_ machine: String) throws {
    let path = Self.directory.appendingPathComponent("\(machine).jsonl").path
    let result = PackageFSM.run(["replay", machine, path])
    #expect(result.code == 0, "\(result.errorOutput)\(result.output)")
    let entries = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count - 1
    #expect(result.output.hasSuffix("replayed \(entries) entries: identical\n"), "\(result.output)")
  }

  @Test("the 0.1.0 logs are the ones listed (none left out)")
  func listed() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".jsonl") }
    #expect(Set(files) == Set(Self.machines.map { "\($0).jsonl" }))
  }
}
