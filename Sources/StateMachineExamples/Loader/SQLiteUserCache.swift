import CSQLite
public import Foundation

/// The loader's cache in an SQLite database file, through the system's libsqlite3.
///
/// One row per user: `(page, position, name, timestamp)`. Opening the database creates the
/// table when needed and deletes every row older than the maximum age (``purgedAtOpen`` says
/// how many); reads ignore rows that have become stale since. Writing a page replaces its
/// rows in one transaction, so a page is never half-written.
///
/// ```swift
/// let cache = try SQLiteUserCache(path: "users.sqlite")   // throws a CacheError naming the file
/// try cache.store(["Ada Lovelace"], page: 1)
/// try cache.users(page: 1)  // ["Ada Lovelace"]
/// ```
///
/// A file that is not a database, or a path that cannot be written, fails at `init` with a
/// ``CacheError``; the loader then runs without a cache.
public final class SQLiteUserCache: UserCache, @unchecked Sendable {
  // Safe: the connection is used only while `lock` is held, and closed in `deinit`.
  private let lock = NSLock()
  private let database: OpaquePointer
  /// The database file.
  public let path: String
  private let maxAge: Double
  private let now: @Sendable () -> Double
  /// How many stale rows opening the database deleted.
  public private(set) var purgedAtOpen = 0

  /// Opens (or creates) the database at `path`; entries are fresh for `maxAge` seconds of `now`.
  public init(
    path: String, maxAge: Double = 3600, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
  ) throws(CacheError) {
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
    let status = sqlite3_open_v2(path, &handle, flags, nil)
    guard status == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close(handle)
      throw CacheError(path: path, operation: "open", code: status, message: message)
    }
    (database, self.path, self.maxAge, self.now) = (handle, path, maxAge, now)
    sqlite3_busy_timeout(handle, 1000)
    try execute(
      """
      CREATE TABLE IF NOT EXISTS users (
        page INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, timestamp REAL NOT NULL,
        PRIMARY KEY (page, position))
      """, operation: "create table")
    try statement("DELETE FROM users WHERE timestamp < ?", operation: "purge") { statement throws(CacheError) in
      sqlite3_bind_double(statement, 1, now() - maxAge)
      try step(statement, operation: "purge")
    }
    purgedAtOpen = Int(sqlite3_changes(handle))
  }

  deinit { sqlite3_close(database) }

  public func users(page: Int) throws(CacheError) -> [String]? {
    let oldest = now() - maxAge
    return try locked { () throws(CacheError) -> [String]? in
      var names: [String] = []
      try statement(
        "SELECT name FROM users WHERE page = ? AND timestamp >= ? ORDER BY position", operation: "read"
      ) { statement throws(CacheError) in
        sqlite3_bind_int64(statement, 1, Int64(page))
        sqlite3_bind_double(statement, 2, oldest)
        while try step(statement, operation: "read") == SQLITE_ROW {
          names.append(String(cString: sqlite3_column_text(statement, 0)))
        }
      }
      return names.isEmpty ? nil : names
    }
  }

  public func store(_ users: [String], page: Int) throws(CacheError) {
    let time = now()
    try locked { () throws(CacheError) in
      try execute("BEGIN IMMEDIATE", operation: "write")
      do throws(CacheError) {
        try statement("DELETE FROM users WHERE page = ?", operation: "write") { statement throws(CacheError) in
          sqlite3_bind_int64(statement, 1, Int64(page))
          try step(statement, operation: "write")
        }
        try statement("INSERT INTO users (page, position, name, timestamp) VALUES (?, ?, ?, ?)", operation: "write") {
          statement throws(CacheError) in
          for (position, name) in users.enumerated() {
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, Int64(page))
            sqlite3_bind_int64(statement, 2, Int64(position))
            sqlite3_bind_text(statement, 3, name, -1, sqliteTransient)
            sqlite3_bind_double(statement, 4, time)
            try step(statement, operation: "write")
          }
        }
        try execute("COMMIT", operation: "write")
      } catch {
        try? execute("ROLLBACK", operation: "write")
        throw error
      }
    }
  }

  /// How many rows the table holds, stale or not (for tests and tools).
  public func rowCount() throws(CacheError) -> Int {
    try locked { () throws(CacheError) -> Int in
      var count = 0
      try statement("SELECT COUNT(*) FROM users", operation: "read") { statement throws(CacheError) in
        if try step(statement, operation: "read") == SQLITE_ROW { count = Int(sqlite3_column_int64(statement, 0)) }
      }
      return count
    }
  }

  // MARK: - SQLite calls

  private func locked<T>(_ body: () throws(CacheError) -> T) throws(CacheError) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  private func execute(_ sql: String, operation: String) throws(CacheError) {
    let status = sqlite3_exec(database, sql, nil, nil, nil)
    guard status == SQLITE_OK else { throw failure(operation, status) }
  }

  private func statement(
    _ sql: String, operation: String, _ body: (OpaquePointer) throws(CacheError) -> Void
  ) throws(CacheError) {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
    guard status == SQLITE_OK, let statement else { throw failure(operation, status) }
    defer { sqlite3_finalize(statement) }
    try body(statement)
  }

  @discardableResult
  private func step(_ statement: OpaquePointer, operation: String) throws(CacheError) -> Int32 {
    let status = sqlite3_step(statement)
    guard status == SQLITE_ROW || status == SQLITE_DONE else { throw failure(operation, status) }
    return status
  }

  private func failure(_ operation: String, _ status: Int32) -> CacheError {
    CacheError(path: path, operation: operation, code: status, message: String(cString: sqlite3_errmsg(database)))
  }
}

/// SQLite's `SQLITE_TRANSIENT`: copy the bound text before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
