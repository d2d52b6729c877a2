public import StateMachine

/// The least a user writes: one state, one event, one row. The label is computed from the
/// context, so it is never out of date.
///
/// ```swift
/// var machine = Machine(NameLength.table, context: NameLength.Context())
/// machine.send(.editName("Ada"))
/// machine.context.label  // "length: 3"
/// ```
public enum NameLength {
  public enum State: String, Hashable, Sendable, CaseIterable, Codable, Discriminated { case editing }

  public enum Event: Hashable, Sendable, Codable, Discriminated, CustomStringConvertible {
    case editName(String)
    // Payloads are encoded under their names (`{"editPhone":{"text":"1"}}`); logs from
    // before they were named (`_0`) still decode.
    enum EditNameCodingKeys: String, CodingKey { case _0 = "text" }

    public init(from decoder: any Decoder) throws {
      self = try decodeCase(decoder, [
        "editName": { .editName(try $0("text")) },
      ])
    }

    public enum Kind: Hashable, Sendable, CaseIterable { case editName }
    @inlinable public var discriminant: Kind { .editName }
    public var description: String {
      switch self {
      case .editName(let text): "editName(\(quoted(text)))"
      }
    }
  }

  public struct Context: Hashable, Sendable, Codable {
    public var name = ""
    public init(name: String = "") { self.name = name }
    /// What the label under the field shows.
    public var label: String { "length: \(name.count)" }
  }

  /// No effects: a command with no work of its own, so a ``Store`` can run it too.
  public typealias Effect = Command<Event, Never>

  /// The transition table.
  public static let table: TransitionTable<State, Event, Context, Effect> = build {
    try TransitionTable(
      name: "name-length",
      initial: .editing,
      // Its only state is where it stays for good: final, so analysis reports no dead end.
      states: [.final(.editing)],
      rows: [
        .stay(in: .editing, on: .editName).update { context, event in
          if case .editName(let text) = event { context.name = text }
        }
      ])
  }
}
