public import Foundation
public import StateMachine

/// What the loader needs from the outside world.
public struct LoaderServices: Sendable {
  /// Fetches the body of a page from the network; throws ``LoadError/network`` (or anything
  /// else, which counts as ``LoadError/unknown``) when it cannot.
  public var fetchPage: @Sendable (_ page: Int) async throws -> Data
  /// The cache, if any.
  public var cache: (any UserCache)?
  /// Told about cache failures; the loader carries on from the network without the cache.
  public var cacheFailed: @Sendable (CacheError) -> Void

  public init(
    fetchPage: @escaping @Sendable (_ page: Int) async throws -> Data, cache: (any UserCache)? = nil,
    cacheFailed: @escaping @Sendable (CacheError) -> Void = { _ in }
  ) {
    (self.fetchPage, self.cache, self.cacheFailed) = (fetchPage, cache, cacheFailed)
  }

  /// The users of `page` from the network, written to the cache.
  func download(_ page: Int) async throws -> [String] {
    let users = try RandomUserPage.decode(try await fetchPage(page))
    do { try cache?.store(users, page: page) } catch { cacheFailed(error) }
    return users
  }

  /// The fresh cached users of `page`, if any.
  func cached(_ page: Int) -> [String]? {
    do { return try cache?.users(page: page) } catch {
      cacheFailed(error)
      return nil
    }
  }
}

extension Loader {
  /// A store running ``chart``.
  public typealias Runtime = Store<Chart<State, Event, Context, Effect>>

  /// A store running the loader with `services`. A failed fetch becomes `.failed` with its
  /// ``LoadError/classify(_:)`` class; a failed refresh keeps the cached page and sends nothing.
  public static func store(services: LoaderServices, clock: any Clock<Duration>, context: Context = Context(), inspector: Runtime.Inspector? = nil) -> Runtime {
    shippedChartStore { () throws(ChartRunError) in
      try Runtime(chart, context: context, clock: clock, handler: services.perform, failure: LoaderServices.failure, inspector: inspector)
    }
  }
}

extension LoaderServices {
  /// Performs the loader's work: a fresh cached page at once, else the network.
  @Sendable func perform(_ work: Loader.Work, _ send: Send<Loader.Event>) async throws {
    switch work {
    case .fetch(let page):
      if let users = cached(page) {
        send(.loaded(page: page, users: users, fromCache: true))
      } else {
        send(.loaded(page: page, users: try await download(page), fromCache: false))
      }
    case .refresh(let page):
      send(.refreshed(page: page, users: try await download(page)))
    }
  }

  /// What a failed fetch sends; a failed refresh sends nothing.
  @Sendable static func failure(_ work: Loader.Work, _ error: any Error) -> Loader.Event? {
    guard case .fetch = work else { return nil }
    return .failed(LoadError.classify(error))
  }
}
