import FSMBenchmarks
import FSMCommand

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The library's commands, and `bench`, whose workloads only this executable links.
let code = await FSM.$added.withValue(["bench": BenchCommand.added]) {
  await FSM.main(Array(CommandLine.arguments.dropFirst()))
}
exit(code)
