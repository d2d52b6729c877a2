/// JSON numbers in their plainest spellings, parsed from bytes: what log lines nearly always
/// hold. Any other spelling (an exponent, too many digits, anything not JSON) gives `nil`, and
/// the caller takes its general path, so results never differ from it.
@usableFromInline
enum PlainNumber {
  /// `-?(0|[1-9][0-9]*)` with at most 18 digits (so it cannot overflow).
  @inlinable
  static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
    let negative = !bytes.isEmpty && bytes[0] == UInt8(ascii: "-")
    var i = negative ? 1 : 0
    let first = i
    var value = 0
    while i < bytes.count, bytes[i] &- UInt8(ascii: "0") < 10 {
      value = value &* 10 &+ Int(bytes[i] &- UInt8(ascii: "0"))
      i &+= 1
    }
    let digits = i - first
    guard i == bytes.count, digits > 0, digits <= 18, digits == 1 || bytes[first] != UInt8(ascii: "0") else { return nil }
    return negative ? -value : value
  }

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?` with at most 15 digits in all: the digits make an integer
  /// below 2^53 and the point a power of ten up to 10^15, both exact as `Double`s, so one
  /// division gives the correctly rounded value, the same `Double(String)` gives.
  @inlinable
  static func decimal(_ bytes: UnsafeRawBufferPointer) -> Double? {
    let negative = !bytes.isEmpty && bytes[0] == UInt8(ascii: "-")
    var i = negative ? 1 : 0
    let first = i
    var mantissa: Int64 = 0
    while i < bytes.count, bytes[i] &- UInt8(ascii: "0") < 10 {
      mantissa = mantissa &* 10 &+ Int64(bytes[i] &- UInt8(ascii: "0"))
      i &+= 1
    }
    let integerDigits = i - first
    guard integerDigits > 0, integerDigits == 1 || bytes[first] != UInt8(ascii: "0") else { return nil }
    var fractionDigits = 0
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i &+= 1
      while i < bytes.count, bytes[i] &- UInt8(ascii: "0") < 10 {
        mantissa = mantissa &* 10 &+ Int64(bytes[i] &- UInt8(ascii: "0"))
        i &+= 1
        fractionDigits &+= 1
      }
      guard fractionDigits > 0 else { return nil }
    }
    guard i == bytes.count, integerDigits + fractionDigits <= 15 else { return nil }
    let magnitude = Double(mantissa) / powerOfTen(fractionDigits)
    return negative ? -magnitude : magnitude
  }

  /// 10^n for n in 0...15, exact (a switch: no global array to load on the hot path).
  @inlinable
  static func powerOfTen(_ n: Int) -> Double {
    switch n {
    case 0: 1
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    default: 1e15
    }
  }
}
