import Foundation
import StateMachine
import StateMachineExamples
import Synchronization
import Testing

/// The loader's SQLite cache against real database files in a temporary directory.
@Suite("SQLite user cache")
final class SQLiteUserCacheTests {
  /// A clock for the cache, in seconds, that a test moves by hand.
  final class Now: Sendable {
    let seconds = Mutex(1_000_000.0)
    var read: @Sendable () -> Double { { self.seconds.withLock { $0 } } }
    func advance(_ by: Double) { seconds.withLock { $0 += by } }
  }

  let directory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-cache-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  // Each test has a suite of its own: its directory goes when the test ends.
  deinit { try? FileManager.default.removeItem(at: directory) }

  func path(_ name: String = "users.sqlite") -> String { directory.appendingPathComponent(name).path }

  @Test func storesAndReadsPagesKeptApart() throws {
    let cache = try SQLiteUserCache(path: path())
    try cache.store(["Ada Lovelace", "Alan Turing"], page: 1)
    try cache.store(["Grace Hopper"], page: 2)
    #expect(try cache.users(page: 1) == ["Ada Lovelace", "Alan Turing"])
    #expect(try cache.users(page: 2) == ["Grace Hopper"])
    #expect(try cache.users(page: 3) == nil)
    try cache.store(["Barbara Liskov"], page: 1)
    #expect(try cache.users(page: 1) == ["Barbara Liskov"], "a page is replaced, not appended to")
    #expect(try cache.rowCount() == 2)
  }

  @Test func survivesReopening() throws {
    do {
      let cache = try SQLiteUserCache(path: path())
      try cache.store(["Ada Lovelace", "O'Brien \"Quoted\""], page: 1)
    }
    let reopened = try SQLiteUserCache(path: path())
    #expect(try reopened.users(page: 1) == ["Ada Lovelace", "O'Brien \"Quoted\""])
    #expect(reopened.purgedAtOpen == 0)
  }

  @Test func entriesOlderThanAnHourAreIgnored() throws {
    let now = Now()
    let cache = try SQLiteUserCache(path: path(), now: now.read)
    try cache.store(["Ada Lovelace"], page: 1)
    now.advance(3600)
    #expect(try cache.users(page: 1) == ["Ada Lovelace"], "exactly an hour old is still fresh")
    now.advance(1)
    #expect(try cache.users(page: 1) == nil)
    #expect(try cache.rowCount() == 1, "ignored, not deleted, until the next open")
  }

  @Test func staleEntriesArePurgedAtOpen() throws {
    let now = Now()
    do {
      let cache = try SQLiteUserCache(path: path(), now: now.read)
      try cache.store(["Ada Lovelace", "Alan Turing"], page: 1)
      now.advance(1800)
      try cache.store(["Grace Hopper"], page: 2)
    }
    now.advance(1801)
    let reopened = try SQLiteUserCache(path: path(), now: now.read)
    #expect(reopened.purgedAtOpen == 2)
    #expect(try reopened.rowCount() == 1)
    #expect(try reopened.users(page: 2) == ["Grace Hopper"])
  }

  struct BadFile: Sendable, CustomTestStringConvertible {
    let label: String
    let prepare: @Sendable (URL) throws -> String
    let operation: String
    var testDescription: String { label }
  }

  @Test(arguments: [
    BadFile(label: "a file that is not a database", prepare: { directory in
      let file = directory.appendingPathComponent("corrupt.sqlite")
      try Data(String(repeating: "this is not an SQLite database\n", count: 200).utf8).write(to: file)
      return file.path
    }, operation: "create table"),
    BadFile(label: "a directory in its place", prepare: { directory in
      let folder = directory.appendingPathComponent("folder.sqlite")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      return folder.path
    }, operation: "open"),
    BadFile(label: "a missing parent directory", prepare: { directory in
      directory.appendingPathComponent("missing/users.sqlite").path
    }, operation: "open"),
  ])
  func badFilesGetAClearError(_ bad: BadFile) throws {
    let file = try bad.prepare(directory)
    do {
      _ = try SQLiteUserCache(path: file)
      Issue.record("opening \(file) should fail")
    } catch {
      #expect(error.path == file)
      #expect(error.operation == bad.operation)
      #expect(error.code != 0)
      #expect(error.description.contains(file) && error.description.contains("failed"), "\(error)")
    }
  }

  @Test func theLoaderStillWorksFromTheNetworkWithoutItsCache() async throws {
    let file = directory.appendingPathComponent("corrupt.sqlite")
    try Data(String(repeating: "garbage ", count: 1000).utf8).write(to: file)
    let cache: (any UserCache)? = try? SQLiteUserCache(path: file.path)
    #expect(cache == nil)
    let clock = ManualClock()
    let server = FakeUserServer(clock: clock)
    let store = Loader.store(services: LoaderServices(fetchPage: server.fetchPage, cache: cache), clock: clock)
    store.send(.load)
    await clock.advance(by: .milliseconds(500))
    #expect(store.configuration == [.success])
    #expect(store.context.users.count == 3)
    await store.finish()
  }

  @Test func theLoaderCarriesOnWhenTheCacheFailsWhileRunning() async throws {
    let cache = try SQLiteUserCache(path: path())
    try cache.store(["Ada Lovelace"], page: 1)
    // Make the file unusable under the open connection: replace it with garbage.
    try Data(String(repeating: "garbage ", count: 1000).utf8).write(to: URL(fileURLWithPath: path()))
    let clock = ManualClock()
    let server = FakeUserServer(clock: clock)
    let failures = Mutex<[CacheError]>([])
    let services = LoaderServices(fetchPage: server.fetchPage, cache: cache) { error in failures.withLock { $0.append(error) } }
    let store = Loader.store(services: services, clock: clock)
    store.send(.load)
    await clock.advance(by: .milliseconds(500))
    #expect(store.configuration == [.success])
    #expect(store.context.fromCache == false)
    #expect(store.context.users == FakeUserServer.users(page: 1).map { "\($0.first) \($0.last)" })
    #expect(!failures.withLock { $0 }.isEmpty, "the cache failure was reported")
    await store.finish()
  }

  @Test func theLoaderShowsACachedPageFromTheDatabase() async throws {
    let clock = ManualClock()
    let cache = try SQLiteUserCache(path: path())
    try cache.store(["Cached Person"], page: 1)
    let server = FakeUserServer(clock: clock)
    let store = Loader.store(services: LoaderServices(fetchPage: server.fetchPage, cache: cache), clock: clock)
    store.send(.load)
    await clock.settle()
    #expect(store.configuration == [.success])
    #expect(store.context.users == ["Cached Person"])
    #expect(server.requestedPages == [1], "the refresh asked the network")
    await clock.advance(by: .milliseconds(500))
    #expect(store.context.users.count == 3, "the refresh replaced the page")
    #expect(try cache.users(page: 1)?.count == 3, "and rewrote the cache")
    await store.finish()
  }

  @Test(arguments: [
    ("a page", RandomUserPage.body([("Ada", "Lovelace"), ("Alan", "Turing")]), Result<[String], LoadError>.success(["Ada Lovelace", "Alan Turing"])),
    ("empty results", RandomUserPage.body([]), .failure(.decode)),
    ("no results key", Data(#"{"info":{}}"#.utf8), .failure(.decode)),
    ("a name without last", Data(#"{"results":[{"name":{"first":"Ada"}}]}"#.utf8), .failure(.decode)),
    ("not JSON", Data("<html>".utf8), .failure(.decode)),
  ])
  func randomUserDecoding(_ label: String, _ body: Data, _ expected: Result<[String], LoadError>) {
    #expect(Result { () throws(LoadError) in try RandomUserPage.decode(body) } == expected, "\(label)")
  }
}
