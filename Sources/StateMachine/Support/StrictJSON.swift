import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A strict check of one JSON text (RFC 8259), in one pass and constant stack: what the log
/// reader runs on every line before it decodes anything, so that what `JSONDecoder` would
/// quietly accept or resolve its own way is refused with a reason:
/// `NaN`, `Infinity`, `0x10`, `+1`, `01`, `1.`, invalid UTF-8, control characters in strings,
/// bad escapes, and duplicate keys in any object. Nesting deeper than ``maxDepth`` is refused
/// too, so no decoder recurses without bound.
@usableFromInline
enum StrictJSON {
  @usableFromInline static let maxDepth = 512

  /// Why `bytes` is not one strict JSON value, with the byte offset (from 1); `nil` when it is.
  @usableFromInline
  static func problem(in bytes: UnsafeRawBufferPointer) -> String? {
    var checker = Checker(bytes: bytes)
    do {
      try checker.document()
      return nil
    } catch {
      return "\(error.reason) at byte \(error.offset + 1)"
    }
  }

  /// ``problem(in:)`` of the bytes of `data`.
  @usableFromInline
  static func problem(in data: Data) -> String? {
    data.withUnsafeBytes { problem(in: $0) }
  }

  struct Failure: Error {
    let reason: String
    let offset: Int
  }

  struct Checker {
    let bytes: UnsafeRawBufferPointer
    var i = 0
    /// Open containers: for an object, the byte ranges of its keys so far.
    var stack: [Container] = []

    enum Container {
      case array
      /// An object's keys so far (each with whether it has escapes); past 16 keys, a set of them.
      case object(keys: [(range: Range<Int>, escaped: Bool)], set: Set<[UInt8]>?)
    }

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func fail(_ reason: String, at offset: Int? = nil) -> Failure { Failure(reason: reason, offset: offset ?? i) }

    var current: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func skipSpace() {
      while i < bytes.count {
        switch bytes[i] {
        case 0x20, 0x09, 0x0A, 0x0D: i += 1
        default: return
        }
      }
    }

    mutating func document() throws(Failure) {
      skipSpace()
      try value()
      skipSpace()
      guard i == bytes.count else { throw fail("unexpected '\(Self.show(bytes[i]))' after the value") }
    }

    /// One value; containers are walked with an explicit stack, not recursion.
    mutating func value() throws(Failure) {
      try scalarOrOpen()
      while !stack.isEmpty {
        skipSpace()
        guard let byte = current else { throw fail("unexpected end of the line inside \(stackName)") }
        // After a value in a container: its closer ends it, a comma leads to the next value
        // (an array's) or member (an object's).
        let inArray: Bool
        if case .array = stack[stack.count - 1] { inArray = true } else { inArray = false }
        let closer = inArray ? UInt8(ascii: "]") : UInt8(ascii: "}")
        if byte == closer {
          i += 1
          stack.removeLast()
          continue
        }
        guard byte == UInt8(ascii: ",") else {
          throw fail("expected ',' or '\(Self.show(closer))' in \(stackName), found '\(Self.show(byte))'")
        }
        i += 1
        if inArray {
          skipSpace()
          try scalarOrOpen()
        } else {
          try member()
        }
      }
    }

    var stackName: String {
      if case .array = stack.last { return "an array" }
      return "an object"
    }

    /// A scalar, or the opening of a container (pushed; an object's first member read).
    mutating func scalarOrOpen() throws(Failure) {
      guard let byte = current else { throw fail("expected a value, found the end of the line") }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard stack.count < StrictJSON.maxDepth else { throw fail("nested deeper than \(StrictJSON.maxDepth) levels") }
        i += 1
        skipSpace()
        if byte == UInt8(ascii: "[") {
          if current == UInt8(ascii: "]") {
            i += 1
            return
          }
          stack.append(.array)
          try scalarOrOpen()
        } else {
          if current == UInt8(ascii: "}") {
            i += 1
            return
          }
          stack.append(.object(keys: [], set: nil))
          try member(first: true)
        }
      case UInt8(ascii: "\""): _ = try string()
      case UInt8(ascii: "t"): try literal("true")
      case UInt8(ascii: "f"): try literal("false")
      case UInt8(ascii: "n"): try literal("null")
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
      default:
        throw fail(Self.describeBadStart(bytes, at: i))
      }
    }

    /// `"key": value` of the innermost object; the key must not repeat.
    mutating func member(first: Bool = false) throws(Failure) {
      skipSpace()
      guard current == UInt8(ascii: "\"") else {
        throw fail(current.map { "expected a key in quotes, found '\(Self.show($0))'" } ?? "unexpected end of the line inside an object")
      }
      let start = i
      let hasEscape = try string()
      try remember(key: (start + 1)..<(i - 1), escaped: hasEscape, at: start)
      skipSpace()
      guard current == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
      i += 1
      skipSpace()
      try scalarOrOpen()
    }

    mutating func remember(key range: Range<Int>, escaped: Bool, at offset: Int) throws(Failure) {
      guard case .object(var keys, var set) = stack[stack.count - 1] else { return }
      stack[stack.count - 1] = .array  // release the storage while it is edited (no copy)
      let key = escaped || set != nil || keys.count >= 16 || keys.contains(where: \.escaped)
        ? (escaped ? Self.unescaped(bytes, range) : Array(bytes[range])) : []
      let duplicate: Bool
      if var seen = set {
        duplicate = !seen.insert(key).inserted
        set = seen
      } else if keys.count >= 16 {
        var seen = Set(keys.map { $0.escaped ? Self.unescaped(bytes, $0.range) : Array(bytes[$0.range]) })
        duplicate = !seen.insert(key).inserted
        set = seen
      } else {
        duplicate = keys.contains { other in
          if !escaped, !other.escaped {
            return other.range.count == range.count
              && memcmp(bytes.baseAddress! + other.range.lowerBound, bytes.baseAddress! + range.lowerBound, range.count) == 0
          }
          return (other.escaped ? Self.unescaped(bytes, other.range) : Array(bytes[other.range])) == key
        }
        keys.append((range, escaped))
      }
      if duplicate {
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        throw fail("duplicate key \"\(name)\"", at: offset)
      }
      stack[stack.count - 1] = .object(keys: keys, set: set)
    }

    mutating func literal(_ word: String) throws(Failure) {
      let count = word.utf8.count
      let matches = i + count <= bytes.count && word.utf8.enumerated().allSatisfy { bytes[i + $0.offset] == $0.element }
      guard matches else { throw fail(Self.describeBadStart(bytes, at: i)) }
      i += count
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    mutating func number() throws(Failure) {
      let start = i
      if current == UInt8(ascii: "-") { i += 1 }
      guard let first = current, Self.isDigit(first) else { throw fail("invalid number: expected a digit", at: start) }
      i += 1
      if first == UInt8(ascii: "0"), let next = current, Self.isDigit(next) {
        throw fail("invalid number: leading zero", at: start)
      }
      while let d = current, Self.isDigit(d) { i += 1 }
      if current == UInt8(ascii: "x") || current == UInt8(ascii: "X") {
        throw fail("invalid number: hexadecimal is not JSON", at: start)
      }
      if current == UInt8(ascii: ".") {
        i += 1
        guard let d = current, Self.isDigit(d) else { throw fail("invalid number: expected a digit after '.'", at: start) }
        while let d = current, Self.isDigit(d) { i += 1 }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        i += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { i += 1 }
        guard let d = current, Self.isDigit(d) else { throw fail("invalid number: expected a digit in the exponent", at: start) }
        while let d = current, Self.isDigit(d) { i += 1 }
      }
    }

    /// A string starting at the quote under the cursor; returns whether it has escapes.
    mutating func string() throws(Failure) -> Bool {
      let start = i
      i += 1
      var escaped = false
      while let byte = current {
        switch byte {
        case UInt8(ascii: "\""):
          i += 1
          return escaped
        case UInt8(ascii: "\\"):
          escaped = true
          i += 1
          guard let e = current else { break }
          switch e {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 1
          case UInt8(ascii: "u"):
            guard i + 4 < bytes.count, (1...4).allSatisfy({ Self.isHex(bytes[i + $0]) }) else {
              throw fail("invalid \\u escape: expected four hexadecimal digits")
            }
            i += 5
          default:
            throw fail("invalid escape '\\\(Self.show(e))'")
          }
        case 0..<0x20:
          throw fail("control character 0x\(String(byte, radix: 16)) in a string; expected it escaped")
        case 0x80...:
          try utf8Sequence()
        default:
          i += 1
        }
      }
      throw fail("unterminated string", at: start)
    }

    /// One multi-byte UTF-8 sequence: no overlong forms, no surrogates, nothing above U+10FFFF.
    mutating func utf8Sequence() throws(Failure) {
      let lead = bytes[i]
      let (length, low, high): (Int, UInt8, UInt8) =
        switch lead {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        default: (0, 0, 0)
        }
      guard length > 0, i + length <= bytes.count else { throw fail("invalid UTF-8") }
      guard (low...high).contains(bytes[i + 1]) else { throw fail("invalid UTF-8") }
      for k in 2..<length where !(0x80...0xBF).contains(bytes[i + k]) { throw fail("invalid UTF-8") }
      i += length
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isHex(_ byte: UInt8) -> Bool {
      isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    static func show(_ byte: UInt8) -> String {
      byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16)
    }

    /// Names the usual non-JSON spellings (`NaN`, `Infinity`, `+1`, `'x'`) when a value starts badly.
    static func describeBadStart(_ bytes: UnsafeRawBufferPointer, at i: Int) -> String {
      let rest = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<min(bytes.count, i + 9)]), as: UTF8.self)
      if rest.hasPrefix("NaN") || rest.hasPrefix("nan") { return "NaN is not JSON" }
      if rest.hasPrefix("Infinity") || rest.hasPrefix("inf") { return "Infinity is not JSON" }
      if rest.hasPrefix("+") { return "invalid number: a leading '+' is not JSON" }
      if rest.hasPrefix(".") { return "invalid number: expected a digit before '.'" }
      if rest.hasPrefix("'") { return "strings take double quotes" }
      return "expected a value, found '\(show(bytes[i]))'"
    }

    /// A key's bytes with its escapes resolved, so `"a"` and `"\u0061"` are the same key.
    static func unescaped(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> [UInt8] {
      var out: [UInt8] = []
      out.reserveCapacity(range.count)
      var k = range.lowerBound
      var pendingHigh: UInt32?
      while k < range.upperBound {
        let byte = bytes[k]
        guard byte == UInt8(ascii: "\\"), k + 1 < range.upperBound else {
          out.append(byte)
          k += 1
          continue
        }
        let e = bytes[k + 1]
        k += 2
        let scalar: UInt32
        switch e {
        case UInt8(ascii: "b"): scalar = 0x08
        case UInt8(ascii: "f"): scalar = 0x0C
        case UInt8(ascii: "n"): scalar = 0x0A
        case UInt8(ascii: "r"): scalar = 0x0D
        case UInt8(ascii: "t"): scalar = 0x09
        case UInt8(ascii: "u"):
          let hex = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[k..<min(k + 4, range.upperBound)]), as: UTF8.self)
          k += 4
          let unit = UInt32(hex, radix: 16) ?? 0xFFFD
          if (0xD800...0xDBFF).contains(unit) {
            pendingHigh = unit
            continue
          }
          if let high = pendingHigh, (0xDC00...0xDFFF).contains(unit) {
            scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
          } else {
            scalar = unit
          }
          pendingHigh = nil
        default: scalar = UInt32(e)
        }
        out += Array(String(UnicodeScalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
      }
      return out
    }
  }
}
