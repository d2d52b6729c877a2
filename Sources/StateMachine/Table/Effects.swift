/// The effects of one step, in order: a collection that keeps none or one effect inline, so
/// the common step allocates nothing and touches no reference count.
///
/// Use it like an array; compare it with an array literal:
///
/// ```swift
/// let outcome = machine.send(.openClose)
/// for effect in outcome.effects { perform(effect) }
/// #expect(outcome.effects == [.openDrawer])
/// ```
public struct Effects<Effect>: RandomAccessCollection {
  @usableFromInline
  enum Storage {
    case none
    case one(Effect)
    case many([Effect])
  }

  @usableFromInline
  let storage: Storage

  @inlinable
  init(storage: Storage) { self.storage = storage }

  /// The effects of `array`, in order.
  @inlinable
  public init(_ array: [Effect]) {
    switch array.count {
    case 0: storage = .none
    case 1: storage = .one(array[0])
    default: storage = .many(array)
    }
  }

  /// No effects.
  @inlinable
  public init() { storage = .none }

  /// One effect, or none.
  @inlinable
  init(single effect: Effect?) {
    if let effect { storage = .one(effect) } else { storage = .none }
  }

  @inlinable public var startIndex: Int { 0 }

  @inlinable
  public var endIndex: Int {
    switch storage {
    case .none: 0
    case .one: 1
    case .many(let effects): effects.count
    }
  }

  @inlinable
  public subscript(position: Int) -> Effect {
    switch storage {
    case .one(let effect):
      precondition(position == 0, "Effects index out of range")
      return effect
    case .many(let effects):
      return effects[position]
    case .none:
      preconditionFailure("Effects index out of range")
    }
  }
}

extension Effects: ExpressibleByArrayLiteral {
  @inlinable
  public init(arrayLiteral elements: Effect...) { self.init(elements) }
}

extension Effects: Equatable where Effect: Equatable {
  @inlinable
  public static func == (lhs: Effects, rhs: Effects) -> Bool { lhs.elementsEqual(rhs) }
}

extension Effects: Hashable where Effect: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for effect in self { hasher.combine(effect) }
  }
}

extension Effects: Sendable where Effect: Sendable {}
extension Effects.Storage: Sendable where Effect: Sendable {}

extension Effects: CustomStringConvertible {
  public var description: String { "[" + map { String(describing: $0) }.joined(separator: ", ") + "]" }
}

extension Effects: Codable where Effect: Codable {
  /// Effects encode as a JSON array.
  public init(from decoder: any Decoder) throws {
    self.init(try [Effect](from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    try Array(self).encode(to: encoder)
  }
}

extension Effects {
  /// The one effect, when it is a message (see ``StoreEngine/isMessaging(_:)``).
  @inlinable
  func message<Event, Work>() -> MachineMessage? where Effect == Command<Event, Work> {
    guard case .one(let command) = storage, case .message(let message) = command else { return nil }
    return message
  }
}
