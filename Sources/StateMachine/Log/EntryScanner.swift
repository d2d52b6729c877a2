import Foundation

/// The fast path of the log reader: splits an entry line into its top-level fields by hand,
/// parses `sequence`, `time` and `outcome` directly, and decodes the user's values (event,
/// state, context, effects) with `JSONDecoder` only once per distinct JSON text. Log lines
/// repeat the same few values, so almost every entry is read without a `JSONDecoder` call.
@usableFromInline
struct EntryScanner<State: Codable, Event: Codable, Context: Codable, Effect: Codable> {
  @usableFromInline typealias Entry = LogEntry<State, Event, Context, Effect>

  // Keyed by the value's JSON text: short texts are small strings, stored inline, no allocation.
  @usableFromInline var events: [String: Event] = [:]
  @usableFromInline var states: [String: State] = [:]
  @usableFromInline var contexts: [String: Context] = [:]
  @usableFromInline var effects: [String: [Effect]] = [:]
  /// The same values found by their texts' bytes, for ``knownEntry(_:)``.
  @usableFromInline var eventBytes = ByteKeyCache<Event>()
  @usableFromInline var stateBytes = ByteKeyCache<State>()
  @usableFromInline var contextBytes = ByteKeyCache<Context>()
  @usableFromInline var effectsBytes = ByteKeyCache<[Effect]>()
  @usableFromInline let decoder = JSONDecoder()

  @usableFromInline init() {}

  /// Decodes one entry line, or throws the typed error for it. The line is checked as strict
  /// JSON first, so the hand-written scan below only ever sees valid JSON.
  @inlinable
  mutating func entry(_ line: Data, number: Int) throws(LogError) -> Entry {
    if let entry = knownEntry(line) { return entry }
    if let problem = StrictJSON.problem(in: line) { throw .malformed(line: number, detail: "not JSON: \(problem)") }
    let fields = try Self.fields(of: line, number: number)
    func raw(_ index: Int, _ key: String) throws(LogError) -> String {
      guard let value = fields[index] else { throw .missingField(line: number, field: key) }
      return value
    }
    let sequence = try Self.integer(raw(EntryField.sequence, "sequence"), field: "sequence", line: number)
    let time = try fields[EntryField.time].flatMap { (value: String) throws(LogError) -> Double? in
      try Self.number(value, field: "time", line: number)
    }
    let outcome = try Self.outcome(raw(EntryField.outcome, "outcome"), line: number)
    let event = try cached(raw(EntryField.event, "event"), field: "event", line: number, in: &events, &eventBytes)
    let state = try cached(raw(EntryField.state, "state"), field: "state", line: number, in: &states, &stateBytes)
    let context = try cached(raw(EntryField.context, "context"), field: "context", line: number, in: &contexts, &contextBytes)
    let effects = try cached(raw(EntryField.effects, "effects"), field: "effects", line: number, in: &effects, &effectsBytes)
    return Entry(sequence: sequence, time: time, event: event, outcome: outcome, state: state, context: context, effects: effects)
  }

  /// The entry, when the line is provably valid without the strict check: every key known and
  /// given once, the numbers and the outcome in JSON's own spelling, and every value a JSON
  /// text decoded (and so strictly checked) before. `nil` at the least doubt: the full path
  /// then checks the line and says what is wrong with it, exactly as before. It works on the
  /// line's bytes: no `String` is made, values are found by their bytes (``ByteKeyCache``), and
  /// plain integers and decimals are parsed here (anything else in a number takes the full path).
  @inlinable
  func knownEntry(_ line: Data) -> Entry? {
    line.withUnsafeBytes { (line: UnsafeRawBufferPointer) -> Entry? in
      var spans = EntrySpans()
      do { try Self.scan(line, into: &spans, number: 0, requireKnownKeys: true) } catch { return nil }
      guard let sequenceBytes = spans[EntryField.sequence, in: line], let sequence = PlainNumber.integer(sequenceBytes)
      else { return nil }
      var time: Double?
      if let timeBytes = spans[EntryField.time, in: line] {
        guard let value = PlainNumber.decimal(timeBytes) else { return nil }
        time = value
      }
      guard let outcomeBytes = spans[EntryField.outcome, in: line], let outcome = Self.commonOutcome(outcomeBytes),
        let e = spans[EntryField.event, in: line], let event = eventBytes.value(for: e),
        let s = spans[EntryField.state, in: line], let state = stateBytes.value(for: s),
        let c = spans[EntryField.context, in: line], let context = contextBytes.value(for: c),
        let f = spans[EntryField.effects, in: line], let effects = effectsBytes.value(for: f)
      else { return nil }
      return Entry(sequence: sequence, time: time, event: event, outcome: outcome, state: state, context: context, effects: effects)
    }
  }

  @inlinable
  func cached<T: Decodable>(
    _ raw: String, field: String, line: Int, in cache: inout [String: T], _ byBytes: inout ByteKeyCache<T>
  ) throws(LogError) -> T {
    if let value = cache[raw] { return value }
    do {
      let value = try decoder.decode(T.self, from: Data(raw.utf8))
      if cache.count < 4096 {
        cache[raw] = value
        byBytes.insert(value, for: Array(raw.utf8))
      }
      return value
    } catch {
      throw LogError(decoding: error, line: line).prefixed(field)
    }
  }

  /// The raw JSON text of each known top-level key of an object line, indexed as ``EntryField``.
  /// With `requireKnownKeys`, a key entries do not have, or a key given twice, is an error too.
  @usableFromInline
  static func fields(of line: Data, number: Int, requireKnownKeys: Bool = false) throws(LogError) -> [String?] {
    let scanned: Result<[String?], LogError> = line.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      var spans = EntrySpans()
      do throws(LogError) {
        try scan(bytes, into: &spans, number: number, requireKnownKeys: requireKnownKeys)
      } catch {
        return .failure(error)
      }
      return .success(
        EntryField.names.indices.map { spans[$0, in: bytes].map { String(decoding: $0, as: UTF8.self) } })
    }
    return try scanned.get()
  }

  @usableFromInline
  static func scan(
    _ bytes: UnsafeRawBufferPointer, into fields: inout EntrySpans, number: Int, requireKnownKeys: Bool
  ) throws(LogError) {
    let malformed = LogError.malformed(line: number, detail: "not JSON")
    var i = 0
    let n = bytes.count
    func skipSpace() { while i < n, isSpace(bytes[i]) { i += 1 } }
    skipSpace()
    guard i < n, bytes[i] == UInt8(ascii: "{") else { throw malformed }
    i += 1
    skipSpace()
    if i < n, bytes[i] == UInt8(ascii: "}") { i += 1 } else {
      while true {
        skipSpace()
        guard i < n, bytes[i] == UInt8(ascii: "\"") else { throw malformed }
        let keyStart = i + 1
        guard let keyEnd = endOfString(bytes, from: i) else { throw malformed }
        let key = EntryField.index(of: UnsafeRawBufferPointer(rebasing: bytes[keyStart..<keyEnd]))
        i = keyEnd + 1
        skipSpace()
        guard i < n, bytes[i] == UInt8(ascii: ":") else { throw malformed }
        i += 1
        skipSpace()
        let valueStart = i
        guard let valueEnd = endOfValue(bytes, from: i) else { throw malformed }
        if requireKnownKeys, key == nil || fields.has(key!) { throw malformed }
        if let key { fields.set(key, valueStart..<valueEnd) }
        i = valueEnd
        skipSpace()
        guard i < n else { throw malformed }
        if bytes[i] == UInt8(ascii: ",") {
          i += 1
          continue
        }
        guard bytes[i] == UInt8(ascii: "}") else { throw malformed }
        i += 1
        break
      }
    }
    skipSpace()
    guard i == n else { throw malformed }
  }

  /// The index of the quote closing the string that opens at `start`.
  private static func endOfString(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var i = start + 1
    while i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: "\\"): i += 2
      case UInt8(ascii: "\""): return i
      case 0..<0x20: return nil
      default: i += 1
      }
    }
    return nil
  }

  /// The index just past the JSON value that starts at `start` (strings, objects and arrays
  /// balanced; scalars up to the next delimiter). Full validation is left to `JSONDecoder`.
  private static func endOfValue(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    guard start < bytes.count else { return nil }
    switch bytes[start] {
    case UInt8(ascii: "\""):
      return endOfString(bytes, from: start).map { $0 + 1 }
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var i = start
      while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: "\""):
          guard let end = endOfString(bytes, from: i) else { return nil }
          i = end
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return i + 1 }
        default: break
        }
        i += 1
      }
      return nil
    default:
      var i = start
      while i < bytes.count, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: "}"),
        bytes[i] != UInt8(ascii: "]")
      {
        i += 1
      }
      return i > start ? i : nil
    }
  }

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

  @usableFromInline
  static func integer(_ raw: String, field: String, line: Int) throws(LogError) -> Int {
    guard let value = Int(raw) else {
      throw .invalidValue(line: line, field: field, detail: "\(raw) is not an integer in range; expected an integer")
    }
    return value
  }

  @usableFromInline
  static func number(_ raw: String, field: String, line: Int) throws(LogError) -> Double? {
    let text = raw
    if text == "null" { return nil }
    guard let value = Double(text) else { throw .invalidValue(line: line, field: field, detail: "\(raw) is not a number; expected a number of seconds") }
    guard value.isFinite else { throw .invalidValue(line: line, field: field, detail: "\(raw) is out of range; expected a number of seconds") }
    return value
  }

  @usableFromInline
  static func outcome(_ raw: String, line: Int) throws(LogError) -> LoggedOutcome {
    if let common = commonOutcome(raw) { return common }
    do {
      return try JSONDecoder().decode(LoggedOutcome.self, from: Data(raw.utf8))
    } catch {
      throw LogError(decoding: error, line: line).prefixed("outcome")
    }
  }

  /// The outcomes nearly every entry has, read without a decoder.
  @usableFromInline
  static func commonOutcome(_ raw: String) -> LoggedOutcome? {
    var raw = raw
    return raw.withUTF8 { commonOutcome(UnsafeRawBufferPointer($0)) }
  }

  /// ``commonOutcome(_:)-(String)`` of a JSON text's bytes.
  @usableFromInline
  static func commonOutcome(_ raw: UnsafeRawBufferPointer) -> LoggedOutcome? {
    if EntryField.equal(raw, #""transitioned""#) { return .transitioned }
    if EntryField.equal(raw, #""stayed""#) { return .stayed }
    if EntryField.equal(raw, #""ignored""#) { return .ignored }
    return nil
  }
}

extension LogError {
  /// The same error with `field` in front of its field path (for values decoded on their own).
  @usableFromInline
  func prefixed(_ field: String) -> LogError {
    switch self {
    case .missingField(let line, let path): .missingField(line: line, field: field + "." + path)
    case .invalidValue(let line, let path, let detail):
      .invalidValue(line: line, field: path.isEmpty || path == field ? field : field + "." + path, detail: detail)
    case .malformed(let line, _): .invalidValue(line: line, field: field, detail: "not valid JSON")
    default: self
    }
  }
}

/// Where each known key's value is in a line (byte offsets; -1 where the key is absent): what
/// the scan finds, with no array or string made.
@usableFromInline
struct EntrySpans {
  @usableFromInline var start = SIMD8<Int>(repeating: -1)
  @usableFromInline var end = SIMD8<Int>(repeating: -1)

  @inlinable init() {}

  @inlinable func has(_ key: Int) -> Bool { start[key] >= 0 }

  @inlinable mutating func set(_ key: Int, _ range: Range<Int>) { (start[key], end[key]) = (range.lowerBound, range.upperBound) }

  /// The value's bytes in `line`, or `nil` when the key is absent.
  @inlinable
  subscript(key: Int, in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
    has(key) ? UnsafeRawBufferPointer(rebasing: line[start[key]..<end[key]]) : nil
  }
}

/// The entry's keys, in the order ``fields(of:number:)`` returns their values.
@usableFromInline
enum EntryField {
  @usableFromInline static let names = ["context", "effects", "event", "outcome", "sequence", "state", "time"]
  @usableFromInline static var context: Int { 0 }
  @usableFromInline static var effects: Int { 1 }
  @usableFromInline static var event: Int { 2 }
  @usableFromInline static var outcome: Int { 3 }
  @usableFromInline static var sequence: Int { 4 }
  @usableFromInline static var state: Int { 5 }
  @usableFromInline static var time: Int { 6 }

  /// Whether `bytes` spell `text` (a literal: its bytes are in the binary, no global to load).
  @inlinable
  static func equal(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
    bytes.count == text.utf8CodeUnitCount && (bytes.isEmpty || memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0)
  }

  /// The index of the key spelled by `bytes`, or `nil` for a key entries do not have: the
  /// length and first byte tell the keys apart, one comparison confirms.
  static func index(of key: UnsafeRawBufferPointer) -> Int? {
    guard let first = key.first else { return nil }
    switch (key.count, first) {
    case (7, UInt8(ascii: "c")): return equal(key, "context") ? context : nil
    case (7, UInt8(ascii: "e")): return equal(key, "effects") ? effects : nil
    case (5, UInt8(ascii: "e")): return equal(key, "event") ? event : nil
    case (7, UInt8(ascii: "o")): return equal(key, "outcome") ? outcome : nil
    case (8, UInt8(ascii: "s")): return equal(key, "sequence") ? sequence : nil
    case (5, UInt8(ascii: "s")): return equal(key, "state") ? state : nil
    case (4, UInt8(ascii: "t")): return equal(key, "time") ? time : nil
    default: return nil
    }
  }
}
