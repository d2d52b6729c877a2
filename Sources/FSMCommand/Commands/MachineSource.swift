import Foundation
import StateMachine
import StateMachineExamples

/// What a `<machine>` argument names: a shipped machine or a spec file.
enum MachineSource {
  case shipped(MachineDescription)
  case spec(SpecDocument)

  /// Resolves `argument`; the error is the message to print.
  static func resolve(_ argument: String) -> Result<MachineSource, ResolveError> {
    if let machine = MachineCatalog.machine(named: argument) { return .success(.shipped(machine)) }
    let looksLikeFile = argument.hasSuffix(".md") || argument.contains("/")
    guard looksLikeFile || FileManager.default.fileExists(atPath: argument) else {
      let names = MachineCatalog.all.map(\.name).joined(separator: ", ")
      return .failure(.unknownMachine("unknown machine '\(argument)'; expected one of: \(names), or the path of a Markdown spec file"))
    }
    do {
      return .success(.spec(try SpecDocument.load(contentsOf: argument)))
    } catch {
      return .failure(.unreadable(error.description))
    }
  }

  enum ResolveError: Error {
    case unknownMachine(String)
    case unreadable(String)

    var message: String {
      switch self {
      case .unknownMachine(let m), .unreadable(let m): m
      }
    }
  }

  var description: MachineDescription {
    switch self {
    case .shipped(let machine): machine
    case .spec(let spec): MachineDescription(spec.table, summary: "spec \(spec.file)")
    }
  }
}

func printToStandardError(_ text: String) {
  FileHandle.standardError.write(Data(text.utf8))
}
