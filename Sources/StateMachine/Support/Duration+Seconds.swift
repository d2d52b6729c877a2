extension Duration {
  /// The duration in seconds, as a `Double` (for log timestamps and backoff arithmetic).
  @usableFromInline var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
