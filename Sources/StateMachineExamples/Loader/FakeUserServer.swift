public import Foundation

/// A stand-in for the RandomUser API: answers after `latency` of its clock, with three users
/// per page, or with the failures a test queues.
///
/// ```swift
/// let server = FakeUserServer(clock: clock)
/// server.queue(.networkFailure, .emptyPage)   // the next two requests fail
/// let services = LoaderServices(fetchPage: server.fetchPage)
/// ```
public final class FakeUserServer: @unchecked Sendable {
  // Safe: `script` and `requests` are read and written only while `lock` is held.
  private let lock = NSLock()
  private var script: [Response] = []
  private var requests: [Int] = []
  private let clock: any Clock<Duration>
  private let latency: Duration

  /// What the server does with one request.
  public enum Response: Hashable, Sendable {
    /// A page of three users (the default when nothing is queued).
    case users
    /// A page with an empty `results` array.
    case emptyPage
    /// A body that is not JSON.
    case garbage
    /// The network fails.
    case networkFailure
    /// An error the loader does not know.
    case strangeFailure
  }

  /// A server answering after `latency` of `clock`.
  public init(clock: any Clock<Duration>, latency: Duration = .milliseconds(500)) {
    (self.clock, self.latency) = (clock, latency)
  }

  /// Queues responses for the next requests, in order.
  public func queue(_ responses: Response...) { lock.withLock { script += responses } }

  /// The pages requested so far, in order.
  public var requestedPages: [Int] { lock.withLock { requests } }

  /// The users of `page`, as the server returns them.
  public static func users(page: Int) -> [(first: String, last: String)] {
    let first = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Radia"]
    let last = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "Backus", "Perlman"]
    return (0..<3).map { index in
      let n = (page - 1) * 3 + index
      return (first[n % first.count], last[(n / first.count + n) % last.count])
    }
  }

  /// The ``LoaderServices/fetchPage`` of this server.
  @Sendable public func fetchPage(_ page: Int) async throws -> Data {
    let response = lock.withLock {
      requests.append(page)
      return script.isEmpty ? Response.users : script.removeFirst()
    }
    try await clock.sleep(for: latency)
    switch response {
    case .users: return RandomUserPage.body(Self.users(page: page))
    case .emptyPage: return RandomUserPage.body([])
    case .garbage: return Data("<html>Service Unavailable</html>".utf8)
    case .networkFailure: throw LoadError.network
    case .strangeFailure: throw CocoaError(.featureUnsupported)
    }
  }
}
