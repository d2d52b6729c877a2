import FSMCommand

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(await FSM.main(Array(CommandLine.arguments.dropFirst())))
