import FSMBenchmarks
import FSMCommand

/// `fsm` as the package's executable runs it: the library's commands, and `bench`.
enum PackageFSM {
  static func run(_ arguments: [String]) -> CommandResult {
    FSM.$added.withValue(["bench": BenchCommand.added]) { FSM.run(arguments) }
  }
}
