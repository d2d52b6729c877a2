import Foundation
import Testing

/// `fsm` whose output cannot be written (closed, or a broken pipe with SIGPIPE ignored) says so
/// and exits 74; before, Foundation's non-throwing `write` trapped, and `fsm` crashed with a
/// backtrace.
@Suite("fsm with its output closed")
struct ClosedOutputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let label: String
    /// A shell command line; `$0` is the `fsm` executable.
    let script: String
    let code: Int32
    /// What standard error says (or, with it closed, nothing to read).
    let error: String?
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "fsm demo, standard output closed", script: #"exec "$0" demo login --speed 0 >&-"#, code: 74, error: "fsm: cannot write the output: "),
    Case(label: "fsm show, standard output closed", script: #"exec "$0" show login >&-"#, code: 74, error: "fsm: cannot write the output: "),
    // The property check announces its seed on standard error: lost, and the run goes on.
    Case(label: "fsm explore --walks, standard error closed", script: #"exec "$0" explore upload-queue --walks 5 --seed 7 2>&- >/dev/null"#, code: 0, error: nil),
    // A broken pipe, with SIGPIPE ignored (inherited through exec): EPIPE, not a signal. The
    // pipe's only reader has exited (waited for) before `fsm` starts.
    Case(
      label: "fsm demo into a pipe nobody reads, SIGPIPE ignored",
      script: #"trap '' PIPE; exec 3> >(exec true); wait $!; exec "$0" demo login --speed 0 >&3 3>&-"#, code: 74,
      error: "fsm: cannot write the output: Broken pipe"),
  ]

  @Test("says so and exits 74, or goes on when only standard error is closed; never a crash", arguments: cases)
  func closed(_ c: Case) throws {
    let fsm = try #require(ReplayCLITests.fsmExecutable, "build the fsm product first (swift build)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", c.script, fsm]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "\(said)")
    #expect(process.terminationStatus == c.code, "\(said)")
    #expect(!said.contains("Fatal error") && !said.contains("crashed"), "\(said)")
    if let error = c.error { #expect(said.contains(error), "\(said)") }
  }
}
