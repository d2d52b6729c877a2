import Foundation

/// Writes entry lines: the envelope (keys in sorted order, as `JSONEncoder` with `.sortedKeys`
/// writes them) by hand, and each of the user's values through `JSONEncoder` once per distinct
/// value when its type is `Hashable`: log lines repeat the same few values, so most entries are
/// written without an encoder call. The bytes are exactly what encoding the whole entry writes.
@usableFromInline
struct LogLineWriter<State: Codable, Event: Codable, Context: Codable, Effect: Codable> {
  @usableFromInline let encoder: JSONEncoder
  @usableFromInline var events = EncodedValues<Event>()
  @usableFromInline var states = EncodedValues<State>()
  @usableFromInline var contexts = EncodedValues<Context>()
  @usableFromInline var effects = EncodedValues<Effect>()

  /// A writer; `states` remembers the JSON of states (``EncodedValues/hashing()`` when the
  /// caller knows they are `Hashable`).
  @usableFromInline
  init(states: EncodedValues<State> = .init()) {
    self.states = states
    encoder = AnyJSON.encoder
  }

  /// The entry as one line (JSON and a newline) appended to `out`.
  @inlinable
  mutating func append(_ entry: LogEntry<State, Event, Context, Effect>, to out: inout [UInt8]) throws {
    Self.append(#"{"context":"#, to: &out)
    try contexts.append(entry.context, encoder, to: &out)
    Self.append(#","effects":["#, to: &out)
    for (i, effect) in entry.effects.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      try effects.append(effect, encoder, to: &out)
    }
    Self.append(#"],"event":"#, to: &out)
    try events.append(entry.event, encoder, to: &out)
    Self.append(#","outcome":""#, to: &out)
    switch entry.outcome {
    case .transitioned: Self.append("transitioned", to: &out)
    case .stayed: Self.append("stayed", to: &out)
    default: out += entry.outcome.description.utf8  // letters, parentheses: nothing to escape
    }
    Self.append(#"","sequence":"#, to: &out)
    Self.appendInteger(entry.sequence, to: &out)
    Self.append(#","state":"#, to: &out)
    try states.append(entry.state, encoder, to: &out)
    if let time = entry.time {
      Self.append(#","time":"#, to: &out)
      try appendNumber(time, to: &out)
    }
    Self.append("}\n", to: &out)
  }

  /// The bytes of a literal, copied from where the literal lies (no string is made).
  @inlinable
  static func append(_ literal: StaticString, to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// An integer in decimal, as `String(value)` spells it, without making the string.
  @inlinable
  static func appendInteger(_ value: Int, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    let start = out.count
    var rest = value.magnitude
    repeat {
      out.append(UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    out[start...].reverse()
  }

  /// A number as `JSONEncoder` writes it: the shortest text that reads back, without `.0`;
  /// anything unusual (exponents, non-finite) goes through the encoder itself.
  @inlinable
  func appendNumber(_ value: Double, to out: inout [UInt8]) throws {
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    if text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || ($0 >= 0x30 && $0 <= 0x39) }) {
      out += text.utf8
    } else {
      out += try encoder.encode(value)
    }
  }
}

/// The JSON of values of one type, remembered by value (at most ``limit`` of them, so a log of
/// ever-new values keeps bounded memory): a plain value of up to 8 bytes by its bytes, any
/// other `Hashable` value through a cache made once for its type. Others are encoded each time.
@usableFromInline
struct EncodedValues<Value: Encodable> {
  @inlinable static var limit: Int { 4096 }
  /// Plain values (no references) of up to 8 bytes: their bytes are the value.
  @usableFromInline var small: [UInt64: [UInt8]] = [:]
  @usableFromInline let isSmall = _isPOD(Value.self) && MemoryLayout<Value>.size <= 8
  /// The cache of a `Hashable` type's JSON.
  @usableFromInline var hashed: ((Value, JSONEncoder) throws -> [UInt8])?

  /// Values whose type is found `Hashable` at run time: its cache runs unspecialised.
  @usableFromInline init() {
    // A value held by a reference that goes on changing (``KeptByCopy``) is no dictionary key:
    // it is encoded every time.
    self.init(hashed: Value.self is any KeptByCopy.Type ? nil : makeJSONByValue(Value.self).map { cache in { try cache.json($0, $1) } })
  }

  @usableFromInline init(hashed: ((Value, JSONEncoder) throws -> [UInt8])?) { self.hashed = hashed }

  /// Values of a type known to be `Hashable` where this is called: the cache is specialised
  /// there (a chart's log state hashes and compares about 3× faster than through `init()`).
  @inlinable
  static func hashing() -> Self where Value: Hashable {
    let cache = HashedJSON<Value>()
    return Self(hashed: { try cache.json($0, $1) })
  }

  @inlinable
  mutating func append(_ value: Value, _ encoder: JSONEncoder, to out: inout [UInt8]) throws {
    if isSmall {
      var key: UInt64 = 0
      withUnsafeBytes(of: value) { raw in
        withUnsafeMutableBytes(of: &key) { $0.copyMemory(from: raw) }
      }
      out += try remembered(key, in: &small) { Array(try encoder.encode(value)) }
    } else if let hashed {
      out += try hashed(value, encoder)
    } else {
      out += try encoder.encode(value)
    }
  }
}

/// The JSON remembered for `key` in `table`, or made now and remembered while the table holds
/// fewer than ``EncodedValues/limit`` values.
@inlinable
func remembered<Key: Hashable>(_ key: Key, in table: inout [Key: [UInt8]], _ make: () throws -> [UInt8]) rethrows -> [UInt8] {
  if let known = table[key] { return known }
  let json = try make()
  if table.count < EncodedValues<Int>.limit { table[key] = json }
  return json
}

/// A cache of JSON by value for one `Hashable` type.
@usableFromInline
protocol JSONByValue<Value>: AnyObject {
  associatedtype Value
  func json(_ value: Value, _ encoder: JSONEncoder) throws -> [UInt8]
}

/// The cache for `Value`, which is `Key` (the same type, seen as `Hashable`).
final class HashableJSON<Value: Encodable, Key: Hashable>: JSONByValue {
  var table: [Key: [UInt8]] = [:]

  func json(_ value: Value, _ encoder: JSONEncoder) throws -> [UInt8] {
    // Key is Value's own type.
    try remembered(unsafeBitCast(value, to: Key.self), in: &table) { Array(try encoder.encode(value)) }
  }
}

/// The cache for a type known to be `Hashable` where it is made.
@usableFromInline
final class HashedJSON<Value: Encodable & Hashable> {
  @usableFromInline var table: [Value: [UInt8]] = [:]

  @usableFromInline init() {}

  @inlinable
  func json(_ value: Value, _ encoder: JSONEncoder) throws -> [UInt8] {
    try remembered(value, in: &table) { Array(try encoder.encode(value)) }
  }
}

/// A cache for `Value` when it is `Hashable`; `nil` otherwise.
@usableFromInline
func makeJSONByValue<Value: Encodable>(_ type: Value.Type) -> (any JSONByValue<Value>)? {
  guard let hashable = type as? any Hashable.Type else { return nil }
  func make<Key: Hashable>(_: Key.Type) -> any JSONByValue<Value> { HashableJSON<Value, Key>() }
  return make(hashable)
}
