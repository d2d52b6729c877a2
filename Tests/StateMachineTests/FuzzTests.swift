import Foundation
import StateMachine
import StateMachineExamples
import Testing

/// Mutated inputs through the readers: every rejection is a typed error naming its line, and
/// nothing crashes or hangs. The suite runs `FSM_FUZZ_COUNT` inputs per test (20 000 by
/// default); `Scripts/fuzz.sh` runs 100 000 or more of each in a release build.
@Suite("Fuzzing the readers")
struct FuzzTests {
  static let count = ProcessInfo.processInfo.environment["FSM_FUZZ_COUNT"].flatMap(Int.init) ?? 20_000

  @Test("fuzz: mutated specs give a table or a SpecError with a line in the file, never a crash")
  func specs() {
    let base = Array(Door.table.markdown().utf8)
    let pieces: [[UInt8]] = ["|", "\n", "\r\n", "\r", "`", "```", "*", ",", "(stay)", "(ignore)", "- machine: ", "\\", " ", "|---|", "\u{0}", "é"].map { Array($0.utf8) }
    var generator = SplitMix64(seed: 7)
    var outcomes: [String: Int] = [:]
    var slowest = Duration.zero
    for _ in 0..<Self.count {
      var bytes = base
      for _ in 0..<(1 + Int(generator.next() % 4)) {
        let i = Int(generator.next() % UInt64(bytes.count))
        switch generator.next() % 4 {
        case 0: bytes.remove(at: i)
        case 1: bytes.insert(contentsOf: pieces[Int(generator.next() % UInt64(pieces.count))], at: i)
        case 2: bytes[i] ^= UInt8(1 << (generator.next() % 8))
        default:  // a line duplicated or dropped
          let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
          var copy = Array(lines)
          let l = Int(generator.next() % UInt64(copy.count))
          if generator.next() % 2 == 0 { copy.insert(copy[l], at: l) } else { copy.remove(at: l) }
          bytes = Array(copy.joined(separator: [0x0A]))
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let started = ContinuousClock.now
      let lineCount = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.count
      do {
        let spec = try SpecDocument.parse(text, file: "f.md")
        _ = spec.check()
        outcomes["ok", default: 0] += 1
      } catch {
        #expect(error.line >= 0 && error.line <= lineCount, "\(error)")
        #expect(!error.message.isEmpty)
        outcomes[String(error.message.prefix(12)), default: 0] += 1
      }
      slowest = max(slowest, ContinuousClock.now - started)
    }
    #expect(outcomes.count >= 5, "\(outcomes)")
    #expect(slowest < .seconds(10), "no input hangs the reader")
  }
}

extension FuzzTests {
  @Test("fuzz: mutated chart specs give a chart or a SpecError with a line in the file, never a crash")
  func chartSpecs() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let base = Array(try SCXMLDocument.load(contentsOf: root.appendingPathComponent("Specs/player.scxml").path).markdown().utf8)
    let pieces = ["|", "\n", "`", ",", " / ", "compound", "parallel", "deep history", "final", "raise x", "send y after 1s as z", "*", "off"]
      .map { Array($0.utf8) }
    var generator = SplitMix64(seed: 31)
    var outcomes: [String: Int] = [:]
    for _ in 0..<Self.count / 4 {
      var bytes = base
      for _ in 0..<(1 + Int(generator.next() % 4)) {
        let i = Int(generator.next() % UInt64(bytes.count))
        switch generator.next() % 3 {
        case 0: bytes.remove(at: i)
        case 1: bytes.insert(contentsOf: pieces[Int(generator.next() % UInt64(pieces.count))], at: i)
        default: bytes[i] ^= UInt8(1 << (generator.next() % 8))
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let lineCount = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.count
      do {
        let chart = try ChartSpec.parse(text, file: "c.md")
        var machine = ChartMachine(chart, context: NoContext())
        _ = try? machine.start()
        outcomes["ok", default: 0] += 1
      } catch {
        #expect(error.line >= 0 && error.line <= lineCount, "\(error)")
        outcomes[String(error.message.prefix(14)), default: 0] += 1
      }
    }
    #expect(outcomes.count >= 4, "\(outcomes)")
  }

  @Test("a chart spec nested deeper than the limit is refused, not a stack overflow")
  func deepChartSpec() {
    let header = "| state | parent | kind | initial | entry | exit |\n| --- | --- | --- | --- | --- | --- |\n"
    let rows = (0..<5_000).map { "| s\($0) | \($0 == 0 ? "" : "s\($0 - 1)") | \($0 == 4_999 ? "atomic" : "compound") |  |  |  |\n" }.joined()
    #expect(throws: SpecError.self) { try ChartSpec.parse(header + rows, file: "deep.md") }
  }
}
