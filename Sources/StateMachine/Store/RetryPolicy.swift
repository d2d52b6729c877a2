/// Retries as data: how many attempts, and how long to wait before each.
///
/// A table uses it through a guard on the attempt count and a delayed re-send, so a retry is a
/// row you can see in the table and its diagram:
///
/// ```swift
/// let retry = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), multiplier: 2)
/// .transition(from: .loading, on: .failed, to: .waiting)
///     .when("canRetry") { context, _ in context.attempts < retry.maxAttempts }
///     .emit("retry after backoff") { context, _ in .send(.retryNow, after: retry.delay(forAttempt: context.attempts)) }
/// ```
public struct RetryPolicy: Hashable, Sendable {
  /// Attempts in all, the first one included.
  public var maxAttempts: Int
  /// The wait before the second attempt.
  public var initialDelay: Duration
  /// Each wait is the previous one times this.
  public var multiplier: Double
  /// No wait is longer than this.
  public var maxDelay: Duration
  /// A fraction in 0...1: each wait is shortened by up to this share, at random.
  public var jitter: Double
  /// The seed of the jitter's generator: the same seed gives the same waits.
  public var seed: UInt64

  /// A policy of `maxAttempts` retries, the first after `initialDelay`, each next one `multiplier` times longer up to `maxDelay`, with up to `jitter` of it random (seeded by `seed`).
  public init(
    maxAttempts: Int, initialDelay: Duration, multiplier: Double = 2, maxDelay: Duration = .seconds(60),
    jitter: Double = 0, seed: UInt64 = 0
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.initialDelay = initialDelay
    self.multiplier = max(1, multiplier)
    self.maxDelay = maxDelay
    self.jitter = min(1, max(0, jitter))
    self.seed = seed
  }

  /// Whether another attempt may follow `attempts` attempts made so far.
  package func allowsRetry(after attempts: Int) -> Bool { attempts < maxAttempts }

  /// The wait before the attempt that follows attempt number `attempt` (1 for the first retry's
  /// wait): `initialDelay * multiplier^(attempt - 1)`, at most `maxDelay`, less the jitter.
  public func delay(forAttempt attempt: Int) -> Duration {
    let exponent = Double(max(0, attempt - 1))
    var seconds = initialDelay.inSeconds * pow(multiplier, exponent)
    seconds = min(seconds, maxDelay.inSeconds)
    if jitter > 0 {
      var generator = SplitMix64(seed: seed &+ UInt64(attempt) &* 0x9E37_79B9_7F4A_7C15)
      let unit = Double(generator.next() >> 11) / Double(1 << 53)
      seconds *= 1 - jitter * unit
    }
    return .nanoseconds(Int64((seconds * 1e9).rounded()))
  }

  private func pow(_ base: Double, _ exponent: Double) -> Double {
    var result = 1.0
    for _ in 0..<Int(exponent) { result *= base }
    return result
  }
}
