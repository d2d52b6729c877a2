/// What a command printed and how it ended.
public struct CommandResult: Sendable, Equatable {
  /// 0 success; 1 findings or a divergence; 2 bad usage or unreadable input.
  public var code: Int32
  public var output: String
  public var errorOutput: String

  package static func success(_ output: String) -> CommandResult { CommandResult(code: 0, output: output, errorOutput: "") }
  package static func findings(_ output: String) -> CommandResult { CommandResult(code: 1, output: output, errorOutput: "") }
  package static func usage(_ message: String, help: String) -> CommandResult {
    CommandResult(code: 2, output: "", errorOutput: "error: \(message)\n\n\(help)" + (help.hasSuffix("\n") ? "" : "\n"))
  }
  package static func failure(_ message: String) -> CommandResult {
    CommandResult(code: 2, output: "", errorOutput: "error: \(message)\n")
  }
}
