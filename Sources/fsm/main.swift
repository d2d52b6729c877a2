import FSMTool

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The library's commands over the package's examples, and the commands only this executable links.
exit(await PackageFSM.main(Array(CommandLine.arguments.dropFirst())))
