public import StateMachine

/// A generator of values from a seeded `SplitMix64`, with a way to shrink a value toward
/// simpler ones. Use it to make event payloads for random walks.
///
/// ```swift
/// let phone = Gen.string(from: "0123456789", length: 0...11)
/// let events = EventSource<FormEvent> { kind, rng in
///     switch kind {
///     case .phoneChanged: .phoneChanged(phone.next(&rng))
///     case .submit: .submit
///     }
/// }
/// ```
public struct Gen<Value>: Sendable {
  let generate: @Sendable (inout SplitMix64) -> Value
  let shrinker: @Sendable (Value) -> [Value]

  /// A generator from a function, with an optional shrinker (simpler candidates first).
  public init(
    _ generate: @escaping @Sendable (inout SplitMix64) -> Value, shrink: @escaping @Sendable (Value) -> [Value] = { _ in [] }
  ) {
    self.generate = generate
    shrinker = shrink
  }

  /// The next value.
  public func next(_ generator: inout SplitMix64) -> Value { generate(&generator) }

  /// Simpler values to try in place of `value`, simplest first.
  public func shrink(_ value: Value) -> [Value] { shrinker(value) }

  /// Always `value`.
  public static func constant(_ value: Value) -> Gen where Value: Sendable { Gen({ _ in value }) }

  /// Values of another generator, transformed (not shrunk).
  public func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> Gen<T> {
    let generate = self.generate
    return Gen<T>({ transform(generate(&$0)) })
  }
}

extension Gen where Value == Int {
  /// Integers in `range`, shrinking toward the bound nearest zero.
  public static func int(in range: ClosedRange<Int>) -> Gen {
    let target = range.contains(0) ? 0 : (range.lowerBound > 0 ? range.lowerBound : range.upperBound)
    return Gen({ Int.random(in: range, using: &$0) }) { value in
      guard value != target else { return [] }
      var candidates = [target]
      var step = (value - target) / 2
      while step != 0 {
        candidates.append(value - step)
        step /= 2
      }
      return candidates
    }
  }
}

extension Gen where Value == String {
  /// Strings of characters from `alphabet` with a length in `length`, shrinking by dropping characters.
  public static func string(from alphabet: String, length: ClosedRange<Int>) -> Gen {
    let characters = Array(alphabet)
    return Gen({ rng in
      let count = Int.random(in: length, using: &rng)
      return String((0..<count).map { _ in characters.randomElement(using: &rng) ?? " " })
    }) { value in
      guard value.count > length.lowerBound else { return [] }
      var candidates: [String] = []
      if length.lowerBound == 0, !value.isEmpty { candidates.append("") }
      candidates.append(String(value.prefix(max(length.lowerBound, value.count / 2))))
      candidates.append(String(value.dropLast()))
      return candidates.filter { $0 != value }
    }
  }
}

extension Gen {
  /// Arrays of values of `element`, with a count in `count`, shrinking by removing elements.
  public static func array<Element>(of element: Gen<Element>, count: ClosedRange<Int>) -> Gen where Value == [Element] {
    Gen({ rng in (0..<Int.random(in: count, using: &rng)).map { _ in element.next(&rng) } }) { value in
      guard value.count > count.lowerBound else { return [] }
      var candidates: [[Element]] = []
      if count.lowerBound == 0 { candidates.append([]) }
      candidates.append(Array(value.prefix(max(count.lowerBound, value.count / 2))))
      candidates.append(Array(value.dropLast()))
      return candidates
    }
  }

  /// One of `choices`, shrinking toward the first.
  public static func oneOf(_ choices: [Value]) -> Gen where Value: Sendable & Equatable {
    Gen({ choices.randomElement(using: &$0)! }) { value in
      guard let first = choices.first, first != value else { return [] }
      return [first]
    }
  }

  /// `nil` or a value of `wrapped` (half and half), shrinking to `nil` first.
  public static func optional<Wrapped>(_ wrapped: Gen<Wrapped>) -> Gen where Value == Wrapped? {
    Gen({ rng in Bool.random(using: &rng) ? wrapped.next(&rng) : nil }) { value in
      guard let value else { return [] }
      return [nil] + wrapped.shrink(value).map { $0 }
    }
  }
}
