import StateMachine

enum ConformCommand {
  static let help = """
    usage: fsm conform <path>...

    Runs SCION-style conformance tests: each NAME.scxml with its trace NAME.json beside it
    (folders are searched recursively). The chart is started, and the full set of active atomic
    states is compared after the first macrostep and after each event; `after: N` lets N ms
    pass on a virtual clock first. Prints one line per test (pass; fail with the first differing
    step; unsupported with the reason) and a summary.

    exit codes: 0 every test passed (or is unsupported), 1 a test failed, 2 bad usage, no tests, or a
    test that is not valid input (an `after` that is negative, not a number, or over a year)
    """

  static func run(_ words: [String]) -> CommandResult {
    let arguments: Arguments
    do { arguments = try Arguments(words, options: [], flags: ["--help"]) } catch { return .usage(error.description, help: help) }
    if arguments.flags.contains("--help") { return .success(help + "\n") }
    guard !arguments.positionals.isEmpty else { return .usage("missing argument <path>", help: help) }
    let (tests, missing) = ConformanceTest.find(arguments.positionals)
    if let path = missing.first { return .failure("\(path): no such file or folder") }
    guard !tests.isEmpty else { return .failure("no tests (NAME.scxml with NAME.json beside it) under \(arguments.positionals.joined(separator: ", "))") }
    var lines: [String] = []
    var (passed, failed, unsupported, invalid) = (0, 0, 0, 0)
    for test in tests {
      switch test.run() {
      case .pass:
        passed += 1
        lines.append("pass         \(test.name)")
      case .fail(let why):
        failed += 1
        lines.append("FAIL         \(test.name): \(why)")
      case .unsupported(let why):
        unsupported += 1
        lines.append("unsupported  \(test.name): \(why)")
      case .invalid(let why):
        invalid += 1
        lines.append("INVALID      \(test.name): \(why)")
      }
    }
    lines.append(
      "\(tests.count) test\(tests.count == 1 ? "" : "s"): \(passed) passed, \(failed) failed, \(unsupported) unsupported"
        + (invalid > 0 ? ", \(invalid) invalid" : ""))
    let text = lines.joined(separator: "\n") + "\n"
    if invalid > 0 { return CommandResult(code: 2, output: text, errorOutput: "error: \(invalid) test\(invalid == 1 ? " is" : "s are") not valid input\n") }
    return failed == 0 ? .success(text) : .findings(text)
  }
}
