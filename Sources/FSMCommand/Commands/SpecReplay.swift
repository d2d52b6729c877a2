import Foundation
import StateMachine

/// Replays a log recorded by a Swift machine against its spec file, by names: a logged value
/// is named by its case (`"editing"`, or the one key of `{"editPhone":{...}}`), and each entry's
/// step must be one the spec's rows allow from the logged state before it (a guard, a name
/// without code, may hold or not). Contexts and effects are not compared: a spec has none.
enum SpecReplay {
  /// A logged value as a name: a string, or the single key of an object (a payload case).
  struct Name: Codable, Hashable, Sendable, CustomStringConvertible {
    let name: String
    var description: String { name }

    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
      if let text = try? decoder.singleValueContainer().decode(String.self) {
        name = text
        return
      }
      let keys = try decoder.container(keyedBy: Key.self).allKeys
      guard keys.count == 1 else {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected a case name: a string, or an object with one key"))
      }
      name = keys[0].stringValue
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(name)
    }
  }

  /// A logged value that is not compared (contexts, effects).
  struct Skipped: Codable, Sendable {
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    }
  }

  static func replay(_ spec: SpecDocument, logAt path: String, all: Bool) -> CommandResult {
    var reader: LogReader<Name, Name, Skipped, Skipped>
    do throws(LogError) {
      reader = try LogReader(contentsOf: path)
    } catch {
      if case .io(_, let detail) = error { return .failure("\(path): \(detail)") }
      return .failure("\(path): \(error.description)")
    }
    guard reader.header.machine == spec.name else {
      return .failure("\(path): recorded by machine '\(reader.header.machine)', not '\(spec.name)' (the spec \(spec.file))")
    }
    let graph = SpecGraph(spec: spec)
    var state = reader.header.state.name
    var divergences: [Divergence] = []
    var replayed = 0
    do throws(LogError) {
      while let entry = try reader.next() {
        replayed += 1
        if let divergence = graph.divergence(from: state, entry.event.name, entry.outcome, to: entry.state.name, sequence: entry.sequence),
          all || divergences.isEmpty
        {
          divergences.append(divergence)
        }
        state = entry.state.name
        if !all, !divergences.isEmpty { break }
      }
    } catch {
      return .failure("\(path): \(error.description)\n(\(reader.entriesRead) valid entr\(reader.entriesRead == 1 ? "y" : "ies") before it)")
    }
    let report = ReplayReport(replayed: replayed, divergences: divergences)
    var text = "\(path): \(report.description)\n"
    if reader.header.fingerprint != spec.table.fingerprint {
      text += "note: the log's fingerprint differs from the spec's (compared by state and event names, guards taken as holding or not)\n"
    }
    return report.isIdentical ? .success(text) : .findings(text)
  }
}

extension SpecGraph {
  /// How a logged step from `state` on `event` differs from what the spec's rows allow: a
  /// handled step must go where a row goes; an unhandled one must have no row, or only rows
  /// that ignore, or a guard that may not have held. `nil` when the spec allows it.
  func divergence(from state: String, _ event: String, _ outcome: LoggedOutcome, to logged: String, sequence: Int) -> Divergence? {
    let moves = moves(state, event)
    let handled = outcome == .transitioned || outcome == .stayed
    let allowed =
      handled
      ? moves.contains { $0.to == logged }
      : moves.allSatisfy { spec.transitions[$0.row].to == "(ignore)" } || moves.contains { $0.assuming != nil }
    guard !allowed else { return nil }
    let options = moves.isEmpty ? "no row" : moves.map { $0.to + ($0.assuming.map { " [\($0)]" } ?? "") }.joined(separator: " or ")
    return Divergence(
      sequence: sequence, event: event,
      differences: [.init(field: "step from \(state)", expected: "\(outcome) to \(logged) (as logged)", actual: options + " in the spec")])
  }
}
