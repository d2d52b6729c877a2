public import StateMachine

/// The paged user list: load a page, show it, load the next one; retry failures twice with
/// backoff, then wait for the user; show a fresh cached page at once and refresh it.
///
/// - `load` in `idle` or `success` fetches the next page (an effect scoped to `loading`).
///   The handler answers from the cache when it holds a fresh copy of the page (`fromCache`),
///   and the machine then asks for a `refresh` that replaces the page when the network answers.
/// - `load` while a fetch is in flight (`loading`) or a retry is pending (`failure`) is ignored.
/// - A failure (network, decode or unknown) is retried automatically after a backoff
///   (``retryPolicy``: 1 s, then 2 s); after 2 retries the machine waits in `retry` for the
///   user's `retry` event.
/// - The page advances only on success; `reset` clears everything and cancels the refresh.
///
/// ## A chart with two compound states
/// `ready` (idle, success) owns `load`; `fetching` (loading, failure, retry) owns nothing of
/// it, so a `load` while a fetch is in flight or a retry is pending is ignored without a row
/// saying so; `list`, around everything, owns `reset` and `refreshed` once for every state.
///
/// ```
/// list ─ ready { idle, success } ─ load → fetching { loading → failure → loading, retry → loading }
/// ```
public enum Loader {
  /// The chart's states: `list` holds `ready` and `fetching`, which hold the steps.
  public enum State: String, Hashable, Sendable, CaseIterable, Codable {
    case list, ready, idle, success, fetching, loading, failure, retry
  }

  /// The list's step in `configuration` (one atomic state: the chart has no parallel region).
  public static func step(_ configuration: [State]) -> State { configuration.first ?? .idle }

  /// What the user does, what the fetch answers, and the backoff timer.
  public enum Event: Hashable, Sendable, Codable, Discriminated, CustomStringConvertible {
    case load
    case loaded(page: Int, users: [String], fromCache: Bool)
    case failed(LoadError)
    case retryNow
    case retry
    case refreshed(page: Int, users: [String])
    case reset

    // `failed`'s payload is encoded under its name (`{"failed":{"error":"network"}}`); logs from
    // before it was named (`_0`) still decode.
    enum FailedCodingKeys: String, CodingKey { case _0 = "error" }

    public init(from decoder: any Decoder) throws {
      self = try decodeCase(decoder, [
        "load": { _ in .load },
        "loaded": { .loaded(page: try $0("page"), users: try $0("users"), fromCache: try $0("fromCache")) },
        "failed": { .failed(try $0("error")) },
        "retryNow": { _ in .retryNow },
        "retry": { _ in .retry },
        "refreshed": { .refreshed(page: try $0("page"), users: try $0("users")) },
        "reset": { _ in .reset },
      ])
    }

    /// The event's case.
    public enum Kind: Hashable, Sendable, CaseIterable {
      case load, loaded, failed, retryNow, retry, refreshed, reset
    }

    @inlinable public var discriminant: Kind {
      switch self {
      case .load: .load
      case .loaded: .loaded
      case .failed: .failed
      case .retryNow: .retryNow
      case .retry: .retry
      case .refreshed: .refreshed
      case .reset: .reset
      }
    }

    public var description: String {
      switch self {
      case .loaded(let page, let users, let fromCache):
        "loaded(page \(page), \(users.count) users\(fromCache ? ", from cache" : ""))"
      case .failed(let error): "failed(\(error))"
      case .refreshed(let page, let users): "refreshed(page \(page), \(users.count) users)"
      default: "\(discriminant)"
      }
    }
  }

  /// The work the store hands to ``LoaderServices``.
  public enum Work: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Load a page: from the cache when it is fresh there, else from the network.
    case fetch(page: Int)
    /// Load a page from the network and replace the cached copy.
    case refresh(page: Int)

    public var description: String {
      switch self {
      case .fetch(let page): "fetch(page \(page))"
      case .refresh(let page): "refresh(page \(page))"
      }
    }
  }

  /// The pages loaded so far and the state of the current load.
  public struct Context: Hashable, Sendable, Codable {
    /// The users of each loaded page; page `n` is `pages[n - 1]`.
    public var pages: [[String]] = []
    /// Failed attempts of the current load.
    public var attempts = 0
    /// The last failure, until a load succeeds.
    public var lastError: LoadError?
    /// Whether the last page shown came from the cache.
    public var fromCache = false

    public init() {}

    /// Every user loaded, in page order.
    public var users: [String] { pages.flatMap { $0 } }
    /// The page the next load asks for.
    public var nextPage: Int { pages.count + 1 }
  }

  public typealias Effect = Command<Event, Work>

  /// The automatic retries: 2 of them, after 1 s and 2 s.
  public static let retryPolicy = RetryPolicy(maxAttempts: 2, initialDelay: .seconds(1), multiplier: 2)

  typealias Guard = ChartGuard<State, Event, Context>
  typealias Action = ChartAction<Event, Context, Effect>

  static let fromCache = Guard("fromCache") { _, event in
    if case .loaded(_, _, true)? = event { true } else { false }
  }
  static let canRetry = Guard("retries left") { context, _ in retryPolicy.allowsRetry(after: context.attempts) }

  static let append = Action.update("append page") { context, event in
    guard case .loaded(let page, let users, let cached)? = event, page == context.nextPage else { return }
    context.pages.append(users)
    (context.attempts, context.lastError, context.fromCache) = (0, nil, cached)
  }
  static let recordFailure = Action.update("count failure") { context, event in
    if case .failed(let error)? = event { context.lastError = error }
    context.attempts += 1
  }

  /// The chart.
  public static let chart: Chart<State, Event, Context, Effect> = buildChart {
    try Chart(name: "loader", states: [
      .compound(.list, children: [
        .compound(.ready, children: [.atomic(.idle), .atomic(.success)], transitions: [.on(.load, to: .loading)]),
        .compound(.fetching, children: [
          .atomic(.loading, transitions: [
            .on(.loaded, when: fromCache, to: .success, actions: [
              append, .make("refresh(page)") { context, _ in .perform(.refresh(page: context.pages.count), id: "refresh") },
            ]),
            .on(.loaded, to: .success, actions: [append]),
            .on(.failed, when: canRetry, to: .failure, actions: [recordFailure]),
            .on(.failed, to: .retry, actions: [recordFailure]),
          ], onEntry: [
            .make("fetch(next page)") { context, _ in .perform(.fetch(page: context.nextPage), id: "fetch", scope: .state) },
          ]),
          .atomic(.failure, transitions: [.on(.retryNow, to: .loading)], onEntry: [
            .make("after backoff: retryNow (in state)") { context, _ in
              .send(.retryNow, after: retryPolicy.delay(forAttempt: context.attempts), id: "backoff", scope: .state)
            },
          ]),
          .atomic(.retry, transitions: [
            .on(.retry, to: .loading, actions: [.update("reset attempts") { context, _ in (context.attempts, context.lastError) = (0, nil) }]),
          ]),
        ]),
      ], transitions: [
        .on(.refreshed, do: [.update("replace page") { context, event in
          guard case .refreshed(let page, let users)? = event, context.pages.indices.contains(page - 1) else { return }
          context.pages[page - 1] = users
          if page == context.pages.count { context.fromCache = false }
        }]),
        // Re-entering the list ends its fetch and backoff; the refresh is global, so it is cancelled by name.
        .on(.reset, to: .list, actions: [.effect(.cancel("refresh")), .update("clear list") { context, _ in context = Context() }]),
      ]),
    ])
  }
}

/// Why a load failed, as the user is told.
public enum LoadError: String, Error, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
  /// The network could not be reached or answered with an error.
  case network
  /// The response is not a page of users (including an empty page).
  case decode
  /// Anything else.
  case unknown

  /// The failure `error` counts as.
  public static func classify(_ error: any Error) -> LoadError {
    if let error = error as? LoadError { return error }
    if error is DecodingError { return .decode }
    return .unknown
  }

  public var description: String { rawValue }
}
