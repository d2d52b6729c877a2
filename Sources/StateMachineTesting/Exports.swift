// `StateMachineTesting` is the test store (which reports failures to Swift Testing or XCTest)
// and, re-exported, the checking tools: property checks, exploration, demos and models. The
// tools live in their own target so that the `fsm` command can use them without linking a
// test framework.
@_exported public import StateMachineChecking
