public import Foundation

/// Where the loader keeps pages of users between runs.
///
/// A cache answers only with *fresh* pages: rows older than its maximum age are treated as
/// missing. Implementations must be safe to call from any task.
public protocol UserCache: Sendable {
  /// The users of `page` in their order, or `nil` when the page is missing or stale.
  func users(page: Int) throws(CacheError) -> [String]?
  /// Replaces the cached copy of `page` with `users`, stamped with the current time.
  func store(_ users: [String], page: Int) throws(CacheError)
}

/// A cache failure, saying which database, what the cache was doing, and SQLite's words.
public struct CacheError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The database file.
  public var path: String
  /// What the cache was doing: `open`, `create table`, `purge`, `read`, `write`.
  public var operation: String
  /// SQLite's result code (0 when not from SQLite).
  public var code: Int32
  /// SQLite's message.
  public var message: String

  public init(path: String, operation: String, code: Int32, message: String) {
    (self.path, self.operation, self.code, self.message) = (path, operation, code, message)
  }

  public var description: String { "user cache \(path): \(operation) failed: \(message) (SQLite code \(code))" }
}

/// A cache in memory, with the same expiry rule as ``SQLiteUserCache``; for tests and for
/// apps that need no file.
public final class InMemoryUserCache: UserCache, @unchecked Sendable {
  // Safe: `pages` is read and written only while `lock` is held.
  private let lock = NSLock()
  private var pages: [Int: (users: [String], time: Double)] = [:]
  private let maxAge: Double
  private let now: @Sendable () -> Double

  /// A cache whose entries are fresh for `maxAge` seconds of `now` (seconds, any epoch).
  public init(maxAge: Double = 3600, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
    (self.maxAge, self.now) = (maxAge, now)
  }

  public func users(page: Int) -> [String]? {
    let time = now()
    return lock.withLock {
      guard let entry = pages[page], time - entry.time <= maxAge else { return nil }
      return entry.users
    }
  }

  public func store(_ users: [String], page: Int) {
    let time = now()
    lock.withLock { pages[page] = (users, time) }
  }
}
