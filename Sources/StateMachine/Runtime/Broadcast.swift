/// Fans values out to any number of `AsyncStream` subscribers.
final class Broadcast<Element: Sendable>: Sendable {
  private struct State {
    var next: UInt64 = 0
    var subscribers: [UInt64: AsyncStream<Element>.Continuation] = [:]
    var finished = false
  }
  private let state = Locked(State())

  /// A new subscription; `first`, if given, is its first element.
  func subscribe(first: Element? = nil) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
    if let first { continuation.yield(first) }
    let id: UInt64? = state.withLock { state in
      guard !state.finished else { return nil }
      state.next += 1
      state.subscribers[state.next] = continuation
      return state.next
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
    }
    return stream
  }

  func yield(_ element: Element) {
    let subscribers = state.withLock { Array($0.subscribers.values) }
    for subscriber in subscribers { subscriber.yield(element) }
  }

  func finish() {
    let subscribers = state.withLock { state -> [AsyncStream<Element>.Continuation] in
      state.finished = true
      defer { state.subscribers = [:] }
      return Array(state.subscribers.values)
    }
    for subscriber in subscribers { subscriber.finish() }
  }
}
