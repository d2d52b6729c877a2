import Foundation
import StateMachine

/// What a `<machine>` argument names: a shipped machine, a spec file, or an SCXML chart.
enum MachineSource {
  case shipped(MachineDescription)
  case spec(SpecDocument)
  case chart(SCXMLDocument.DocumentChart, file: String)
  /// An SCXML chart with the ECMAScript datamodel (`fsm` built with the trait).
  case scripted(SCXMLDocument.StoreScriptedChart, file: String)

  /// Resolves `argument`; the error is the message to print.
  static func resolve(_ argument: String) -> Result<MachineSource, ResolveError> {
    if let machine = FSM.catalog.machine(named: argument) { return .success(.shipped(machine)) }
    if argument.hasSuffix(".scxml") {
      do {
        return .success(.chart(try SCXMLDocument.load(contentsOf: argument), file: argument))
      } catch {
        guard error.kind == .needsDatamodel else { return .failure(.unreadable(error.description)) }
        guard let make = FSM.ecmascript?.make else { return .failure(.unreadable(error.description + "\n" + FSM.enableECMAScript)) }
        do throws(SCXMLError) {
          let chart = try SCXMLDocument.readStoreScripted(Data(SCXMLDocument.contents(of: argument)), file: argument, datamodel: make)
          return .success(.scripted(chart, file: argument))
        } catch {
          return .failure(.unreadable(error.description))
        }
      }
    }
    let looksLikeFile = argument.hasSuffix(".md") || argument.contains("/")
    guard looksLikeFile || FileManager.default.fileExists(atPath: argument) else {
      let names = FSM.catalog.machines.map(\.name).joined(separator: ", ")
      return .failure(.unknownMachine("unknown machine '\(argument)'; expected one of: \(names), the path of a Markdown spec file, or of an SCXML chart (.scxml)"))
    }
    do {
      switch try SpecDocument.loadMachine(contentsOf: argument) {
      case .table(let spec): return .success(.spec(spec))
      case .chart(let chart): return .success(.chart(chart, file: argument))
      }
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

  /// The table's description; `nil` for a chart.
  var description: MachineDescription? {
    switch self {
    case .shipped(let machine): machine
    case .spec(let spec): MachineDescription(spec.table, summary: "spec \(spec.file)")
    case .chart, .scripted: nil
    }
  }

  /// The machine in `format`.
  func render(_ format: MachineDescription.Format) -> String {
    switch self {
    case .chart(let chart, _): Self.render(chart, format)
    case .scripted(let chart, _): Self.render(chart, format)
    default: description!.render(format)
    }
  }
}

extension MachineSource {
  /// A chart file's chart in `format`: drawn (with what it invokes), or as its Markdown table.
  static func render<Event: Codable, Context: Codable & Equatable & Sendable, Effect: Codable & Equatable>(
    _ chart: Chart<String, Event, Context, Effect>, _ format: MachineDescription.Format
  ) -> String {
    switch format {
    case .mermaid, .dot: drawing(of: chart).render(format)
    case .table: chart.markdown()
    }
  }

  /// `chart` drawn with the charts it invokes (theirs too), each inside its invoker.
  static func drawing<Event: Codable, Context: Codable & Equatable & Sendable, Effect: Codable & Equatable>(
    of chart: Chart<String, Event, Context, Effect>
  ) -> MachineDescription {
    chart.declaredInvokes.reduce(MachineDescription(chart: chart, summary: chart.name)) { drawn, declared in
      drawn.invoking(drawing(of: declared.invoke.chart), in: [declared.state])
    }
  }
}
