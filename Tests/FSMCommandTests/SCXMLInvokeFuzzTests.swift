import Foundation
import FSMTool
import StateMachine
import Testing

/// A fuzzer of documents that invoke others (`<invoke>` by `src`, inline, themselves), run by
/// `fsm run` on random events: each run ends, with its steps (exit 0) or a typed error (exit 2)
/// naming the file and line, or the chart whose run was stopped by a bound. No input may take
/// longer than ``slowest``: a document invoking itself twice once took over a minute (75–114 s
/// in a debug build), where all 600 inputs now take about 5 s together in a debug build; the
/// slowest one took 6 s under ThreadSanitizer on a slow machine, which is why the bound is not
/// lower.
/// `FSM_INVOKE_FUZZ_COUNT` inputs (600 by default).
@Suite("Fuzzing <invoke>: documents that run documents, through fsm run")
struct SCXMLInvokeFuzzTests {
  static let count = ProcessInfo.processInfo.environment["FSM_INVOKE_FUZZ_COUNT"].flatMap(Int.init) ?? 600
  static let slowest = Duration.seconds(20)

  /// Inserts one of `pieces` after a `>` of `base`, one to four times (the document stays XML
  /// more often than not, so most inputs reach the reader and the run).
  static func mutate(_ base: [UInt8], pieces: [[UInt8]], most: UInt64 = 4, _ generator: inout SplitMix64) -> [UInt8] {
    var bytes = base
    for _ in 0..<(1 + Int(generator.next() % most)) {
      let ends = bytes.indices.filter { bytes[$0] == UInt8(ascii: ">") }
      bytes.insert(contentsOf: pieces[Int(generator.next() % UInt64(pieces.count))], at: ends[Int(generator.next() % UInt64(ends.count))] + 1)
    }
    return bytes
  }

  /// The documents mutated: a parent invoking the worker inline, by `src`, and forwarding to it.
  static let seeds = [
    SCXMLInvokeTests.parent(SCXMLInvokeTests.inline), SCXMLInvokeTests.parent("<invoke id=\"w\" src=\"worker.scxml\"/>"),
    SCXMLInvokeTests.parent("<invoke id=\"w\" autoforward=\"true\" src=\"worker.scxml\"/>"),
  ].map { Array($0.utf8) }
  /// The events each run sends, six of them.
  static let events = ["started", "go", "ping", "leave", "tock", "nobody", "finish", "x", "z"]

  /// A new folder (named from `prefix`) with the worker in it, and the path of the parent to
  /// write beside it.
  static func folder(_ prefix: String) throws -> (folder: URL, parent: URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(SCXMLInvokeTests.worker.utf8).write(to: folder.appendingPathComponent("worker.scxml"))
    return (folder, folder.appendingPathComponent("parent.scxml"))
  }

  @Test("mutated invoking documents: each run ends with its steps or a typed error, in bounded time")
  func invoking() throws {
    let pieces = [
      "<invoke id=\"w\" src=\"worker.scxml\"/>", "<invoke src=\"parent.scxml\"/>", "<invoke id=\"v\" src=\"./parent.scxml\"/>",
      "<invoke id=\"q\"><content>\(SCXMLInvokeTests.worker)</content></invoke>", "<send target=\"#_parent\" event=\"x\"/>",
      "<send target=\"#_w\" event=\"ping\"/>", "<send target=\"#_q\" event=\"ping\"/>", "<finalize><raise event=\"z\"/></finalize>",
      "<content/>", "</content>", "<content>", "<final id=\"f\"/>", "<transition event=\"*\" target=\"session\"/>", "<raise event=\"go\"/>",
      "<onentry><send target=\"#_parent\" event=\"started\"/></onentry>", "<transition event=\"done.invoke.q\" target=\"idle\"/>",
    ].map { Array($0.utf8) }
    let (folder, path) = try Self.folder("fsm-invoke-fuzz-")
    defer { try? FileManager.default.removeItem(at: folder) }
    var generator = SplitMix64(seed: 0x1_4E0C)
    var (codes, slowest) = ([Int32: Int](), Duration.zero)
    for _ in 0..<Self.count {
      let bytes = Self.mutate(Self.seeds[Int(generator.next() % UInt64(Self.seeds.count))], pieces: pieces, &generator)
      try Data(bytes).write(to: path)
      let chosen = (0..<6).map { _ in Self.events[Int(generator.next() % UInt64(Self.events.count))] }
      let started = ContinuousClock.now
      let result = PackageFSM.run(["run", path.path, "--events", chosen.joined(separator: ",")])
      slowest = max(slowest, ContinuousClock.now - started)
      codes[result.code, default: 0] += 1
      #expect(result.code == 0 || result.code == 2, "\(result.errorOutput)")
      if result.code == 2 {
        // A document's error names its file and line; a run stopped by a bound names the chart
        // or the input, and the bound.
        let document = result.errorOutput.contains(".scxml") && result.errorOutput.contains("line ")
        let run = result.errorOutput.contains("chart '") || result.errorOutput.contains("caused more than")
        #expect(document || run, "\(result.errorOutput)")
      }
    }
    #expect(codes[0, default: 0] > 0 && codes[2, default: 0] > 0, "\(codes)")
    #expect(slowest < Self.slowest, "the slowest input took \(slowest)")
  }

  /// Each mutated document that reads as a chart of `Command`s runs in a store, its children as
  /// child machines, on a manual clock: the run ends (its loops at their bounds), and once the
  /// store has finished, no child runs. (Without the `*` transition that re-enters the invoking
  /// state on every event: each of its inputs restarts the children 10,000 times before the
  /// bound ends it, seconds of a debug build; `SCXMLInvokeStoreTests.restartLoopBounded` is
  /// that loop, once.)
  @Test("mutated invoking documents in a store: each run ends, and leaves no child running")
  func invokingInAStore() async throws {
    let pieces = [
      "<invoke id=\"w\" src=\"worker.scxml\"/>", "<invoke id=\"v\" autoforward=\"true\" src=\"worker.scxml\"/>",
      "<invoke id=\"q\"><content>\(SCXMLInvokeTests.worker)</content></invoke>", "<send target=\"#_parent\" event=\"x\"/>",
      "<send target=\"#_w\" event=\"ping\"/>", "<send target=\"#_q\" event=\"ping\"/>", "<send target=\"#_nobody\" event=\"z\"/>",
      "<final id=\"f\"/>", "<raise event=\"go\"/>", "<transition event=\"error.communication\"><send target=\"#_nobody\" event=\"z\"/></transition>",
      "<onentry><send target=\"#_parent\" event=\"started\"/></onentry>", "<transition event=\"done.invoke.q\" target=\"idle\"/>",
      "<send target=\"#_w\" event=\"finish\" delay=\"1s\"/>",
    ].map { Array($0.utf8) }
    let (folder, path) = try Self.folder("fsm-invoke-store-fuzz-")
    defer { try? FileManager.default.removeItem(at: folder) }
    var generator = SplitMix64(seed: 0x5_70FE)
    var ran = 0
    for _ in 0..<Self.count {
      // (One or two pieces: more leave most documents unreadable, and nothing runs.)
      let bytes = Self.mutate(Self.seeds[Int(generator.next() % UInt64(Self.seeds.count))], pieces: pieces, most: 2, &generator)
      try Data(bytes).write(to: path)
      let chosen = (0..<6).map { _ in Self.events[Int(generator.next() % UInt64(Self.events.count))] }
      guard let chart = try? SCXMLInvokeStoreTests.chart(at: path.path) else { continue }
      let clock = ManualClock()
      guard let store = try? Store(chart, context: NoContext(), clock: clock, handler: { _, _ in }) else { continue }
      ran += 1
      store.start()
      await store.settle()
      for event in chosen {
        store.send(event)
        await store.settle()
      }
      await clock.advance(by: .seconds(2))
      await store.settle()
      await store.finish()
      #expect(store.children.isEmpty, "\(String(decoding: bytes, as: UTF8.self))")
      // The start and each of the 7 inputs (6 events, then the time) end at the loop bound at
      // the latest: 10,000 steps each.
      #expect(store.stepCount <= 8 * 10_000, "\(store.stepCount) steps: \(String(decoding: bytes, as: UTF8.self))")
    }
    #expect(ran > Self.count / 5, "\(ran) documents ran")
  }

  /// The pieces the runners' agreement is fuzzed with: invocations, messages to children and
  /// to no one (also as a state is left, and after), sends to itself, and transitions on what
  /// they raise.
  static let agreeing = [
    "<invoke id=\"w\" src=\"worker.scxml\"/>", "<invoke id=\"v\" autoforward=\"true\" src=\"worker.scxml\"/>",
    "<invoke id=\"q\"><content>\(SCXMLInvokeTests.worker)</content></invoke>", "<send target=\"#_parent\" event=\"x\"/>",
    "<send target=\"#_w\" event=\"ping\"/>", "<send target=\"#_q\" event=\"ping\"/>", "<send target=\"#_nobody\" event=\"z\"/>",
    "<send event=\"x\"/>", "<final id=\"f\"/>", "<raise event=\"go\"/>", "<transition event=\"error.communication\" target=\"idle\"/>",
    "<transition event=\"z\" target=\"unreachable\"/>", "<onentry><send target=\"#_parent\" event=\"started\"/></onentry>",
    "<transition event=\"done.invoke.q\" target=\"idle\"/>", "<send target=\"#_w\" event=\"finish\" delay=\"1s\"/>",
    "<onexit><send target=\"#_w\" event=\"ping\"/></onexit>", "<transition event=\"x\" target=\"idle\"><send target=\"#_q\" event=\"ping\"/></transition>",
    "<onentry><send target=\"#_w\" event=\"ping\"/></onentry>",
    // (In `session`, these leave it and enter it again: their messages go after its children were cancelled.)
    "<transition event=\"x\" target=\"running\"><send target=\"#_w\" event=\"ping\"/></transition>",
    "<transition event=\"z\" target=\"busy\"><send event=\"started\"/><send target=\"#_q\" event=\"ping\"/></transition>",
  ].map { Array($0.utf8) }

  /// Runs `fsm run` on mutated documents (with random events and, `time`, a second passing
  /// among them), and `runner` (`name`) on each that `fsm run` ran without an error: after the
  /// start and after every input, `runner` must leave the configuration `fsm run` left (its
  /// lines read as `fsm run`'s, `input -> [configuration]`; without the marks of a halt unless
  /// `marksHalts`). One model of `<invoke>`, whichever runs it.
  static func agree(
    _ name: String, seed: UInt64, time: Bool, marksHalts: Bool,
    runner: (SCXMLInvokeStoreTests.DocumentChart, [String]) async throws -> [String]
  ) async throws {
    let (folder, path) = try folder("fsm-invoke-\(name)-agree-fuzz-")
    defer { try? FileManager.default.removeItem(at: folder) }
    var generator = SplitMix64(seed: seed)
    var compared = 0
    for _ in 0..<count {
      let bytes = mutate(seeds[Int(generator.next() % UInt64(seeds.count))], pieces: agreeing, most: 2, &generator)
      try Data(bytes).write(to: path)
      var inputs = (0..<(time ? 5 : 6)).map { _ in events[Int(generator.next() % UInt64(events.count))] }
      if time { inputs.insert("after 1s", at: Int(generator.next() % 6)) }
      let run = PackageFSM.run(["run", path.path, "--events", inputs.joined(separator: ",")])
      guard run.code == 0, let chart = try? SCXMLInvokeStoreTests.chart(at: path.path) else { continue }
      compared += 1
      // (Its configurations: not its effects, indented, nor its notes of inputs nothing took.)
      let expected = run.output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("  ") && $0.contains(" -> [") }
        .map { marksHalts ? $0 : $0.replacingOccurrences(of: " (halted)", with: "") }
      let document = String(decoding: bytes, as: UTF8.self)
      let lines: [String]
      do {
        lines = try await runner(chart, inputs)
      } catch {
        Issue.record("the \(name) failed where fsm run did not: \(error)\n\(document)")
        return
      }
      if lines != expected {
        Issue.record("the \(name) and fsm run differ on \(inputs):\nfsm run:\n\(expected.joined(separator: "\n"))\n\(name):\n\(lines.joined(separator: "\n"))\n\(document)")
        return
      }
    }
    #expect(compared > count / 5, "\(compared) documents compared")
  }

  /// A store, on a manual clock: the time passes there as in `fsm run`.
  @Test("mutated invoking documents: a store takes the configurations fsm run takes, input by input")
  func storeAgreesWithRun() async throws {
    try await Self.agree("store", seed: 0xA6_1EE5, time: true, marksHalts: true) { try await SCXMLInvokeStoreTests.run($0, inputs: $1) }
  }

  /// A synchronous system (`fsm explore`'s and the property checks' runner): no time passes
  /// there, so the inputs are events alone, and a delayed send never fires in either.
  @Test("mutated invoking documents: a system takes the configurations fsm run takes, input by input")
  func systemAgreesWithRun() async throws {
    try await Self.agree("system", seed: 0x5_A6EE, time: false, marksHalts: false) { try SCXMLInvokeSystemTests.run($0, inputs: $1) }
  }
}
