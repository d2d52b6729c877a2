import FSMCommand
import StateMachine
import StateMachineExamples

#if ECMAScript
  import StateMachineECMAScript
#endif

/// The package's own `fsm`: the library's commands over the package's example machines, and
/// the commands only it links (`bench`, and the crash test's `__log-writer`).
package enum PackageFSM {
  /// The package's example machines, with their demos and models.
  package static let catalog = Catalog(
    machines: MachineCatalog.all, demos: MachineCatalog.demos,
    models: [
      .table(Login.model), .chart(Loader.model), .table(Captcha.model), .table(Registration.model), .chart(PhoneLogin.model),
      .chart(Radio.model), .explored(UploadQueue.model), .table(Upload.model), .table(NameLength.model), .table(Counter.model),
      .table(CDPlayer.model),
    ])

  /// The commands the package's `fsm` adds to the library's.
  package static var added: [String: FSM.Added] {
    ["bench": BenchCommand.added, "__log-writer": FSM.Added(run: LogWriterCommand.run, help: "")]
  }

  /// The ECMAScript datamodel SCXML sessions get: one when `fsm` is built with the
  /// `ECMAScript` trait, else none (documents that need it are refused, naming the trait).
  package static var ecmascript: FSM.DatamodelMaker? {
    #if ECMAScript
      FSM.DatamodelMaker { ECMAScriptDatamodel() }
    #else
      nil
    #endif
  }

  /// Runs the command line and prints its output; returns the exit code.
  package static func main(_ arguments: [String]) async -> Int32 {
    await FSM.$ecmascript.withValue(ecmascript) {
      await FSM.$added.withValue(added) { await FSM.main(arguments, catalog: catalog) }
    }
  }

  /// Runs the command line (see ``FSM/run(_:catalog:)``).
  package static func run(_ arguments: [String]) -> CommandResult {
    FSM.$ecmascript.withValue(ecmascript) { FSM.$added.withValue(added) { FSM.run(arguments, catalog: catalog) } }
  }

  /// Runs the command line, handing the lines of commands that print as they go to `emit`.
  package static func run(_ arguments: [String], streaming emit: @escaping @Sendable (String) -> Void) async -> CommandResult {
    await FSM.$ecmascript.withValue(ecmascript) {
      await FSM.$added.withValue(added) { await FSM.run(arguments, catalog: catalog, streaming: emit) }
    }
  }
}
