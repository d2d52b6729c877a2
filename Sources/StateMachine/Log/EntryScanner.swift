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
    let event = try cached(raw(EntryField.event, "event"), field: "event", line: number, in: &events)
    let state = try cached(raw(EntryField.state, "state"), field: "state", line: number, in: &states)
    let context = try cached(raw(EntryField.context, "context"), field: "context", line: number, in: &contexts)
    let effects = try cached(raw(EntryField.effects, "effects"), field: "effects", line: number, in: &effects)
    return Entry(sequence: sequence, time: time, event: event, outcome: outcome, state: state, context: context, effects: effects)
  }

  /// The entry, when the line is provably valid without the strict check: every key known and
  /// given once, the numbers and the outcome in JSON's own spelling, and every value a JSON
  /// text decoded (and so strictly checked) before. `nil` at the least doubt: the full path
  /// then checks the line and says what is wrong with it, exactly as before.
  @inlinable
  func knownEntry(_ line: Data) -> Entry? {
    var fields: [String?]
    do { fields = try Self.fields(of: line, number: 0, requireKnownKeys: true) } catch { return nil }
    guard let sequenceText = fields[EntryField.sequence], StrictJSON.isNumber(sequenceText), let sequence = Int(sequenceText)
    else { return nil }
    var time: Double?
    if let text = fields[EntryField.time] {
      guard StrictJSON.isNumber(text), let value = Double(text), value.isFinite else { return nil }
      time = value
    }
    guard let outcomeText = fields[EntryField.outcome], let outcome = Self.commonOutcome(outcomeText) else { return nil }
    guard let e = fields[EntryField.event], let event = events[e], let s = fields[EntryField.state], let state = states[s],
      let c = fields[EntryField.context], let context = contexts[c], let f = fields[EntryField.effects],
      let effects = effects[f]
    else { return nil }
    return Entry(sequence: sequence, time: time, event: event, outcome: outcome, state: state, context: context, effects: effects)
  }

  @inlinable
  func cached<T: Decodable>(_ raw: String, field: String, line: Int, in cache: inout [String: T]) throws(LogError) -> T {
    if let value = cache[raw] { return value }
    do {
      let value = try decoder.decode(T.self, from: Data(raw.utf8))
      if cache.count < 4096 { cache[raw] = value }
      return value
    } catch {
      throw LogError(decoding: error, line: line).prefixed(field)
    }
  }

  /// The raw JSON text of each known top-level key of an object line, indexed as ``EntryField``.
  /// With `requireKnownKeys`, a key entries do not have, or a key given twice, is an error too.
  @usableFromInline
  static func fields(of line: Data, number: Int, requireKnownKeys: Bool = false) throws(LogError) -> [String?] {
    var fields = [String?](repeating: nil, count: EntryField.names.count)
    let scanned: LogError? = line.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> LogError? in
      do throws(LogError) {
        try scan(bytes, into: &fields, number: number, requireKnownKeys: requireKnownKeys)
        return nil
      } catch {
        return error
      }
    }
    if let scanned { throw scanned }
    return fields
  }

  private static func scan(
    _ bytes: UnsafeRawBufferPointer, into fields: inout [String?], number: Int, requireKnownKeys: Bool
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
        if requireKnownKeys, key == nil || fields[key!] != nil { throw malformed }
        if let key {
          fields[key] = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
        }
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
    switch raw {
    case #""transitioned""#: .transitioned
    case #""stayed""#: .stayed
    case #""ignored""#: .ignored
    default: nil
    }
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

  /// The keys' bytes, for comparing with memcmp.
  static let bytes: [[UInt8]] = names.map { Array($0.utf8) }

  /// The index of the key spelled by `bytes`, or `nil` for a key entries do not have.
  static func index(of key: UnsafeRawBufferPointer) -> Int? {
    guard let base = key.baseAddress else { return nil }
    for (i, name) in bytes.enumerated() where name.count == key.count {
      if name.withUnsafeBytes({ memcmp($0.baseAddress!, base, key.count) }) == 0 { return i }
    }
    return nil
  }
}
