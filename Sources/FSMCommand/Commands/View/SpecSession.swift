import Foundation
import StateMachine

/// A log recorded by a Swift machine, read against the machine's spec file by names, as
/// `fsm replay` checks it (see ``SpecReplay``): each step's state is the logged state's name,
/// its event, context and effects are shown as logged, and the first step the spec's rows do
/// not allow is the divergence.
enum SpecSession {
  /// The session of the log at `path`, or the message `fsm replay` prints for it.
  static func read(_ spec: SpecDocument, logAt path: String) -> Result<SessionSteps, ViewFailure> {
    var reader: LogReader<Logged, Logged, Logged, Logged>
    do throws(LogError) {
      reader = try LogReader(contentsOf: path)
    } catch {
      if case .io(_, let detail) = error { return .failure(ViewFailure(message: "\(path): \(detail)")) }
      return .failure(ViewFailure(message: "\(path): \(error.description)"))
    }
    guard reader.header.machine == spec.name else {
      return .failure(ViewFailure(message: "\(path): recorded by machine '\(reader.header.machine)', not '\(spec.name)' (the spec \(spec.file))"))
    }
    let graph = SpecGraph(spec: spec)
    var log = EventLog<Logged, Logged, Logged, Logged>(header: reader.header)
    var divergence: Divergence?
    var state = reader.header.state.name
    do throws(LogError) {
      while let entry = try reader.next() {
        if divergence == nil {
          divergence = graph.divergence(from: state, entry.event.name, entry.outcome, to: entry.state.name, sequence: entry.sequence)
        }
        state = entry.state.name
        log.entries.append(entry)
      }
    } catch {
      let read = reader.entriesRead
      return .failure(ViewFailure(message: "\(path): \(error.description)\n(\(read) valid entr\(read == 1 ? "y" : "ies") before it)"))
    }
    let finals = Set(spec.states.filter(\.isFinal).map(\.name))
    let states = spec.states.map { SessionState(name: $0.name, kind: finals.contains($0.name) ? "final" : "atomic") }
    return .success(SessionSteps(log, states: states, divergence: divergence, show: \.name, names: { [$0.name] }))
  }

  /// Any JSON value of a log line, kept to be shown: a state or an event by its case's name, a
  /// payload, context or effect as compact JSON.
  indirect enum Logged: Codable, Sendable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([Logged])
    case object([String: Logged])

    init(from decoder: any Decoder) throws {
      if let container = try? decoder.container(keyedBy: SpecReplay.Name.Key.self) {
        var fields: [String: Logged] = [:]
        for key in container.allKeys { fields[key.stringValue] = try container.decode(Logged.self, forKey: key) }
        self = .object(fields)
      } else if var container = try? decoder.unkeyedContainer() {
        var items: [Logged] = []
        while !container.isAtEnd { items.append(try container.decode(Logged.self)) }
        self = .array(items)
      } else {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
          self = .null
        } else if let bool = try? value.decode(Bool.self) {
          self = .bool(bool)
        } else if let number = try? value.decode(Double.self) {
          self = .number(number)
        } else {
          self = .string(try value.decode(String.self))
        }
      }
    }

    func encode(to encoder: any Encoder) throws {
      switch self {
      case .string(let text):
        var container = encoder.singleValueContainer()
        try container.encode(text)
      case .number(let number):
        var container = encoder.singleValueContainer()
        try container.encode(number)
      case .bool(let bool):
        var container = encoder.singleValueContainer()
        try container.encode(bool)
      case .null:
        var container = encoder.singleValueContainer()
        try container.encodeNil()
      case .array(let items):
        var container = encoder.unkeyedContainer()
        for item in items { try container.encode(item) }
      case .object(let fields):
        var container = encoder.container(keyedBy: SpecReplay.Name.Key.self)
        for (key, value) in fields { try container.encode(value, forKey: .init(stringValue: key)) }
      }
    }

    /// The case's name, as ``SpecReplay/Name`` reads it: a string, or an object's one key.
    var name: String {
      switch self {
      case .string(let text): text
      case .object(let fields) where fields.count == 1: fields.keys.first!
      default: description
      }
    }

    /// As a page shows a logged value (``SessionLane/shown(_:)``): a string as itself, a case
    /// without a payload by its name, anything else as compact JSON.
    var description: String { SessionLane.shown(foundation) }

    /// The value as `JSONSerialization` has it.
    var foundation: Any {
      switch self {
      case .string(let text): text
      case .number(let number): number
      case .bool(let bool): bool
      case .null: NSNull()
      case .array(let items): items.map(\.foundation)
      case .object(let fields): fields.mapValues(\.foundation)
      }
    }
  }
}
