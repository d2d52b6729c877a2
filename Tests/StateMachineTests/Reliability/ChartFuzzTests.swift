import Foundation
import StateMachine
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutation fuzzer of SCXML documents and chart specs: every input gives a chart or a typed
/// error; a chart is checked, run on random events of its own alphabet, and exported, and what
/// the exports write reads back as the same chart (or the export refuses, naming why).
///
/// Bounds asserted: no input takes longer than ``slowest`` to go through all of that, and the
/// process's peak memory stays under ``memoryCeiling``. `FSM_CHART_FUZZ_COUNT` inputs of each
/// kind (2,000 by default); `Scripts/fuzz.sh` runs 100,000 of each in a release build.
@Suite("Fuzzing charts: SCXML and chart specs, through check, run and export")
struct ChartFuzzTests {
  static let count = ProcessInfo.processInfo.environment["FSM_CHART_FUZZ_COUNT"].flatMap(Int.init) ?? 2_000
  /// The longest one input may take (parse, check, 40 events, both exports and read-backs).
  static let slowest = Duration.seconds(5)
  /// The process's peak resident memory after the run.
  static let memoryCeiling = 1 << 30

  typealias Doc = SCXMLDocument.DocumentChart

  /// The seed documents: every SCION chart, and `Specs/player.scxml`.
  static func seeds() throws -> [(name: String, bytes: [UInt8])] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    var paths = ChartSpecTests.scionCharts().compactMap { SCXMLTests.scionFile($0) }
    paths.append(root.appendingPathComponent("Specs/player.scxml").path)
    return try paths.map { ($0, Array(try Data(contentsOf: URL(fileURLWithPath: $0)))) }
  }

  /// Mutates `base`: deletions, insertions of `pieces`, bit flips, and lines duplicated or dropped.
  static func mutate(_ base: [UInt8], pieces: [[UInt8]], _ generator: inout SplitMix64) -> [UInt8] {
    var bytes = base
    for _ in 0..<(1 + Int(generator.next() % 4)) {
      guard !bytes.isEmpty else { break }
      let i = Int(generator.next() % UInt64(bytes.count))
      switch generator.next() % 5 {
      case 0: bytes.remove(at: i)
      case 1, 2: bytes.insert(contentsOf: pieces[Int(generator.next() % UInt64(pieces.count))], at: i)
      case 3: bytes[i] ^= UInt8(1 << (generator.next() % 8))
      default:
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        let l = Int(generator.next() % UInt64(lines.count))
        if generator.next() % 2 == 0 { lines.insert(lines[l], at: l) } else { lines.remove(at: l) }
        bytes = Array(lines.joined(separator: [0x0A]))
      }
    }
    return bytes
  }

  /// What every chart the fuzzer reads goes through; returns the outcome's name.
  static func exercise(_ chart: Doc, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    _ = chart.check()
    var machine = ChartMachine(chart, context: NoContext())
    var random = SplitMix64(seed: seed)
    let alphabet = QuickStepTests.alphabet(chart)
    if (try? machine.start()) != nil {
      for _ in 0..<40 { _ = try? machine.send(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
    }
    let markdown = chart.markdown()
    do {
      let back = try ChartSpec.parse(markdown, file: "back.md")
      #expect(back.markdown() == markdown, "the Markdown spec reads back as itself", sourceLocation: sourceLocation)
    } catch {
      Issue.record("the Markdown spec does not read back: \(error)\n\(markdown)", sourceLocation: sourceLocation)
    }
    do {
      let document = try chart.scxml()
      let back = try SCXMLDocument.parse(Data(document.utf8), file: "back.scxml")
      #expect(back.markdown() == markdown, "the SCXML export reads back as the same chart", sourceLocation: sourceLocation)
      return "read back"
    } catch let refusal as ExportError {
      #expect(!refusal.subject.isEmpty)
      return "export refused"
    } catch {
      Issue.record("the SCXML export does not read back: \(error)", sourceLocation: sourceLocation)
      return "unreadable export"
    }
  }

  /// The process's peak resident memory, in bytes.
  static var peakMemory: Int {
    var usage = rusage()
    #if canImport(Darwin)
      getrusage(RUSAGE_SELF, &usage)
      return Int(usage.ru_maxrss)
    #else
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return Int(usage.ru_maxrss) * 1024
    #endif
  }

  @Test("mutated SCXML documents: a chart that checks, runs and exports back to itself, or a typed error",
        .enabled(if: SCXMLTests.scionFile("index.tsv") != nil, "needs ../shared/scion"))
  func scxml() throws {
    let seeds = try Self.seeds()
    let pieces = [
      "<", ">", "/>", "\"", "=", "&", " ", "</state>", "<state id=\"z\">", "<state id=\"a b\"/>", "<final id=\"f\"/>",
      "<parallel id=\"p\"><state id=\"r1\"/><state id=\"r2\"/></parallel>", "<history id=\"h\" type=\"deep\"><transition target=\"h\"/></history>",
      "<history id=\"h2\"/>", "<transition event=\"e\" target=\"z\"/>", "<transition target=\"z\"/>", "<transition event=\"e\" type=\"internal\"/>",
      "<raise event=\"e\"/>", "<send event=\"e\" delay=\"1s\" id=\"t\"/>", "<cancel sendid=\"t\"/>", "<onentry><raise event=\"e\"/></onentry>",
      "initial=\"z\" ", "target=\"", "event=\"*\" ", "cond=\"In('z')\" ", "<?x?>", "<!-- c -->", "<![CDATA[x]]>", "xmlns:q=\"urn:q\" ", "q:a=\"1\" ",
    ].map { Array($0.utf8) }
    var generator = SplitMix64(seed: 0x5C_4D_1E)
    var outcomes: [String: Int] = [:]
    var slowest = Duration.zero
    for n in 0..<Self.count {
      let seed = seeds[Int(generator.next() % UInt64(seeds.count))]
      let bytes = Self.mutate(seed.bytes, pieces: pieces, &generator)
      let started = ContinuousClock.now
      do {
        let chart = try SCXMLDocument.parse(Data(bytes), file: "f.scxml")
        outcomes[Self.exercise(chart, seed: UInt64(n)), default: 0] += 1
      } catch {
        #expect(!error.problems.isEmpty, "\(seed.name): \(error)")
        outcomes[error.kind.rawValue, default: 0] += 1
      }
      let took = ContinuousClock.now - started
      if took > slowest { slowest = took }
    }
    print("chart fuzz, SCXML: \(Self.count) inputs, \(outcomes.sorted { $0.key < $1.key }), slowest \(slowest), peak \(Self.peakMemory >> 20) MiB")
    #expect(outcomes["read back", default: 0] > Self.count / 10, "\(outcomes)")
    #expect(outcomes.count >= 4, "\(outcomes)")
    #expect(slowest < Self.slowest, "the slowest input took \(slowest)")
    #expect(Self.peakMemory < Self.memoryCeiling, "peak memory \(Self.peakMemory) bytes")
  }

  @Test("mutated chart specs: a chart that checks, runs and exports back to itself, or a SpecError naming a line in the file",
        .enabled(if: SCXMLTests.scionFile("index.tsv") != nil, "needs ../shared/scion"))
  func specs() throws {
    let seeds = try Self.seeds().compactMap { seed -> (name: String, bytes: [UInt8])? in
      guard let chart = try? SCXMLDocument.parse(Data(seed.bytes), file: seed.name) else { return nil }
      return (seed.name, Array(chart.markdown().utf8))
    }
    let pieces = [
      "|", "\n", "`", "``", ",", " / ", "\\", " ", "compound", "parallel", "deep history", "shallow history", "final", "atomic", "internal",
      "raise x", "send y after 1s as z", "cancel z", "error error.execution", "error error.custom", "*", "a b", "`a b`", "x / y", "In(z)",
      "| z |  | atomic |  |  |  |\n", "| z | e |  | z |  |  |\n",
    ].map { Array($0.utf8) }
    var generator = SplitMix64(seed: 0x5BEC)
    var outcomes: [String: Int] = [:]
    var slowest = Duration.zero
    for n in 0..<Self.count {
      let seed = seeds[Int(generator.next() % UInt64(seeds.count))]
      let text = String(decoding: Self.mutate(seed.bytes, pieces: pieces, &generator), as: UTF8.self)
      let lineCount = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.count
      let started = ContinuousClock.now
      do {
        let chart = try ChartSpec.parse(text, file: "c.md")
        outcomes[Self.exercise(chart, seed: UInt64(n)), default: 0] += 1
      } catch {
        #expect(error.line >= 0 && error.line <= lineCount, "\(error)")
        #expect(!error.message.isEmpty)
        outcomes["refused", default: 0] += 1
      }
      let took = ContinuousClock.now - started
      if took > slowest { slowest = took }
    }
    print("chart fuzz, specs: \(Self.count) inputs, \(outcomes.sorted { $0.key < $1.key }), slowest \(slowest), peak \(Self.peakMemory >> 20) MiB")
    #expect(outcomes["read back", default: 0] > Self.count / 10, "\(outcomes)")
    #expect(outcomes["refused", default: 0] > Self.count / 10, "\(outcomes)")
    #expect(slowest < Self.slowest, "the slowest input took \(slowest)")
    #expect(Self.peakMemory < Self.memoryCeiling, "peak memory \(Self.peakMemory) bytes")
  }
}
