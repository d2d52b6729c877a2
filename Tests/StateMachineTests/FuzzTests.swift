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
