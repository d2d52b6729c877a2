import FSMTool
import FSMCommand
import Foundation
import Testing

/// Hostile inputs to `fsm`: each ends with exit 2 and an error that says what was expected,
/// never a hang or a signal.
@Suite("fsm on hostile input")
struct HostileCLITests {
  static let folder = CLITests.fixtures.appendingPathComponent("hostile").path

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let words: [String]
    let says: String
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(
      label: "fsm run: a chart that sends itself an event without delay, forever",
      words: ["run", folder + "/self-send.scxml", "--events", "ping"], says: "'ping' caused more than 10000 events"),
    Case(
      label: "fsm run: the bound is configurable",
      words: ["run", folder + "/self-send.scxml", "--events", "ping", "--max-events", "50"], says: "more than 50 events"),
    Case(
      label: "fsm run: a delayed self-send while a long time passes",
      words: ["run", folder + "/self-send.scxml", "--events", "tick,after 1000s"], says: "caused more than 10000 events"),
    Case(label: "fsm conform: after 1e300", words: ["conform", folder + "/huge-after.scxml"], says: "after 1e+300; expected milliseconds from 0"),
    Case(label: "fsm conform: a negative after", words: ["conform", folder + "/negative-after.scxml"], says: "after -5.0; expected milliseconds from 0"),
    Case(
      label: "fsm demo --record on a chart file that invokes nothing",
      words: ["demo", folder + "/self-send.scxml", "--record", folder + "/never-written.jsonl"],
      says: "--record records the shipped machines' demos, and chart files that invoke others (which run in a store), only"),
    Case(
      label: "fsm demo --events on a shipped machine, whose demo plays its script",
      words: ["demo", "login", "--events", "submit"], says: "--events is for a spec or chart file; 'login' plays its scripted scenario"),
    Case(
      label: "fsm demo --steps on a shipped machine",
      words: ["demo", "upload-queue", "--steps", "3"], says: "--steps is for a spec or chart file; 'upload-queue' plays its scripted scenario"),
    Case(
      label: "fsm demo on a file: --events and a walk's --seed together",
      words: ["demo", CLITests.planted, "--events", "go", "--seed", "2"], says: "--events plays the events given, and --seed is for a random walk"),
    Case(
      label: "fsm explore --walks on a spec table, whose guards have no code",
      words: ["explore", CLITests.planted, "--walks", "5"], says: "--walks walks a machine; '\(CLITests.planted)' is a spec table"),
    Case(
      label: "fsm show --format scxml: a state id SCXML cannot carry",
      words: ["show", folder + "/spaced-id.md", "--format", "scxml"], says: "state `the start`: SCXML separates ids with whitespace"),
  ]

  @Test("each hostile input exits 2 with an error saying what was expected", arguments: cases)
  func hostile(_ c: Case) async {
    let result = await PackageFSM.run(c.words, streaming: { _ in })
    #expect(result.code == 2, "\(result.output)\(result.errorOutput)")
    #expect((result.output + result.errorOutput).contains(c.says), "\(result.output)\(result.errorOutput)")
    #expect(!FileManager.default.fileExists(atPath: Self.folder + "/never-written.jsonl"))
  }
}
