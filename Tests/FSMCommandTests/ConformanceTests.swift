import FSMTool
import FSMCommand
import Foundation
import Testing

/// The SCION conformance suite in `../shared/scion` (beside the package; not part of it).
enum SCION {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/scion").path
  static var present: Bool { FileManager.default.fileExists(atPath: folder + "/index.tsv") }
  static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  /// Test path (as `fsm conform` names it) → pool, from `index.tsv`.
  static func pools() throws -> [String: String] {
    let text = try String(contentsOfFile: folder + "/index.tsv", encoding: .utf8)
    var pools: [String: String] = [:]
    for line in text.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      if fields.count >= 2 { pools[String(fields[0])] = String(fields[1]) }
    }
    return pools
  }
}

@Suite("SCION conformance")
struct ConformanceTests {
  @Test("the SCION suite is there in CI")
  func presentInCI() {
    if SCION.inCI { #expect(SCION.present, "CI=true but \(SCION.folder) is missing") }
  }

  @Test("fsm conform passes every strict test and at least 20 of the 24 relaxed ones", .enabled(if: SCION.present, "../shared/scion is missing"))
  func suite() throws {
    let result = PackageFSM.run(["conform", SCION.folder])
    let lines = result.output.split(separator: "\n").map(String.init)
    let pools = try SCION.pools()
    #expect(pools.count == 86)
    var passed: [String: Int] = [:]
    for line in lines where line.hasPrefix("pass ") {
      let name = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
      passed[pools[name] ?? "unknown", default: 0] += 1
    }
    #expect(passed["strict"] == 62, "\(result.output)")
    #expect((passed["relaxed"] ?? 0) >= 20, "\(result.output)")
    #expect(result.code == 0)
    #expect(lines.last == "86 tests: 86 passed, 0 failed, 0 unsupported")
  }

  @Test("a failing trace names the step, the expected and the actual configuration; exit 1")
  func failureReport() throws {
    let folder = FileManager.default.temporaryDirectory.path + "/fsm-conform-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a">
        <parallel id="a"><state id="a1"/><state id="a2"><transition event="t" target="b"/></state></parallel>
        <state id="b"/>
      </scxml>
      """.write(toFile: folder + "/chart.scxml", atomically: true, encoding: .utf8)
    try """
      {"initialConfiguration": ["a2", "a1"], "events": [{"event": {"name": "t"}, "nextConfiguration": ["c"]}]}
      """.write(toFile: folder + "/chart.json", atomically: true, encoding: .utf8)
    let result = PackageFSM.run(["conform", folder])
    #expect(result.code == 1)
    #expect(result.output.contains("FAIL         chart: event 1 't': expected [c], got [b]"), "\(result.output)")
    #expect(result.output.hasSuffix("1 test: 0 passed, 1 failed, 0 unsupported\n"))
    #expect(PackageFSM.run(["conform", folder + "/nowhere"]).code == 2)
  }
}
