/// Fans values out to any number of `AsyncStream` subscribers.
import Synchronization

@usableFromInline
final class Broadcast<Element: Sendable>: Sendable {
  @usableFromInline
  struct State {
    @usableFromInline var next: UInt64 = 0
    @usableFromInline var subscribers: [UInt64: AsyncStream<Element>.Continuation] = [:]
    @usableFromInline var finished = false
    @usableFromInline init() {}
  }
  @usableFromInline let state = Locked(State())
  /// Subscribers now: read without the lock, so a broadcast nobody listens to costs one load.
  @usableFromInline let subscriberCount = Atomic<Int>(0)

  /// Whether anyone listens.
  @inlinable var hasSubscribers: Bool { subscriberCount.load(ordering: .acquiring) > 0 }
  @usableFromInline init() {}

  /// A new subscription; `first`, if given, is its first element.
  func subscribe(first: Element? = nil) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
    if let first { continuation.yield(first) }
    let id: UInt64? = state.withLock { state in
      guard !state.finished else { return nil }
      state.next += 1
      state.subscribers[state.next] = continuation
      subscriberCount.store(state.subscribers.count, ordering: .releasing)
      return state.next
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      state.withLock { state in
        state.subscribers.removeValue(forKey: id)
        subscriberCount.store(state.subscribers.count, ordering: .releasing)
      }
    }
    return stream
  }

  @inlinable
  func yield(_ element: Element) {
    guard hasSubscribers else { return }
    let subscribers = state.withLock { $0.subscribers.isEmpty ? [] : Array($0.subscribers.values) }
    for subscriber in subscribers { subscriber.yield(element) }
  }

  @usableFromInline func finish() {
    let subscribers = state.withLock { state -> [AsyncStream<Element>.Continuation] in
      state.finished = true
      subscriberCount.store(0, ordering: .releasing)
      defer { state.subscribers = [:] }
      return Array(state.subscribers.values)
    }
    for subscriber in subscribers { subscriber.finish() }
  }
}
