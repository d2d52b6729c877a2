import Foundation
import Testing

@testable import StateMachine

/// The log reader's own number parsing must give exactly what `Int(String)` and
/// `Double(String)` give, or `nil` so that the general path decides.
@Suite("Plain numbers")
struct PlainNumberTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let text: String
    /// Whether the plain parser takes it (else it must answer `nil`).
    let plain: Bool
    var testDescription: String { "\(text) (\(plain ? "plain" : "general path"))" }
  }

  static let integers = [
    Case(text: "0", plain: true), Case(text: "-0", plain: true), Case(text: "7", plain: true),
    Case(text: "-42", plain: true), Case(text: "123456789012345678", plain: true),
    Case(text: "1234567890123456789", plain: false), Case(text: "01", plain: false), Case(text: "-", plain: false),
    Case(text: "", plain: false), Case(text: "1.0", plain: false), Case(text: "1e3", plain: false),
    Case(text: "+1", plain: false), Case(text: " 1", plain: false), Case(text: "--1", plain: false),
  ]

  static let decimals = [
    Case(text: "0", plain: true), Case(text: "-0", plain: true), Case(text: "-0.0", plain: true),
    Case(text: "0.5", plain: true), Case(text: "0.1", plain: true), Case(text: "0.3333333333333", plain: true),
    Case(text: "0.000123456", plain: true), Case(text: "12345.678901234", plain: true),
    Case(text: "123456789012345", plain: true), Case(text: "-987.25", plain: true),
    Case(text: "1234567890123456", plain: false), Case(text: "0.12345678901234567", plain: false),
    Case(text: "1e-07", plain: false), Case(text: "1E5", plain: false), Case(text: "1.", plain: false),
    Case(text: ".5", plain: false), Case(text: "01.5", plain: false), Case(text: "null", plain: false),
    Case(text: "", plain: false), Case(text: "-", plain: false), Case(text: "1.5 ", plain: false),
  ]

  static func parse<T>(_ text: String, _ parser: (UnsafeRawBufferPointer) -> T?) -> T? {
    var text = text
    return text.withUTF8 { parser(UnsafeRawBufferPointer($0)) }
  }

  @Test("integers: Int(String)'s value, or nil", arguments: integers)
  func integer(_ c: Case) {
    let parsed = Self.parse(c.text, PlainNumber.integer)
    if c.plain {
      #expect(parsed == Int(c.text))
    } else {
      #expect(parsed == nil)
    }
  }

  @Test("decimals: Double(String)'s exact bits, or nil", arguments: decimals)
  func decimal(_ c: Case) {
    let parsed = Self.parse(c.text, PlainNumber.decimal)
    if c.plain {
      #expect(parsed?.bitPattern == Double(c.text)?.bitPattern)
    } else {
      #expect(parsed == nil)
    }
  }

  @Test("random decimals of up to 15 digits round exactly like Double(String)")
  func randomDecimals() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<100_000 {
      let digits = Int(random.next() % 15) + 1
      let integerDigits = Int(random.next() % UInt64(digits + 1))
      var text = random.next() % 2 == 0 ? "" : "-"
      let integer = (0..<integerDigits).map { i in String(i == 0 ? random.next() % 9 + 1 : random.next() % 10) }.joined()
      let fraction = (0..<(digits - integerDigits)).map { _ in String(random.next() % 10) }.joined()
      text += (integer.isEmpty ? "0" : integer) + (fraction.isEmpty ? "" : "." + fraction)
      let parsed = Self.parse(text, PlainNumber.decimal)
      if (integer.isEmpty ? 1 : integer.count) + fraction.count <= 15 {
        #expect(parsed?.bitPattern == Double(text)?.bitPattern, "\(text)")
      } else {
        #expect(parsed == nil, "\(text)")
      }
    }
  }

  @Test("the byte cache finds exactly the bytes it was given")
  func byteCache() {
    var cache = ByteKeyCache<Int>()
    #expect(Self.parse("a", cache.value(for:)) == nil)
    cache.insert(1, for: Array("\"load\"".utf8))
    cache.insert(2, for: [])
    #expect(Self.parse("\"load\"", cache.value(for:)) == 1)
    #expect(Self.parse("", cache.value(for:)) == 2)
    #expect(Self.parse("\"loaD\"", cache.value(for:)) == nil)
    #expect(Self.parse("\"load\" ", cache.value(for:)) == nil)
    // More keys than slots: each lookup is either the right value or a miss, never another's.
    for i in 0..<2_000 { cache.insert(i, for: Array("{\"n\":\(i)}".utf8)) }
    for i in 0..<2_000 {
      let found = Self.parse("{\"n\":\(i)}", cache.value(for:))
      #expect(found == nil || found == i)
    }
  }
}
