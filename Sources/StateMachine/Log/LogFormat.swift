/// The versions of the log format, whatever the log's types: what a header is written with and
/// which a reader takes.
@usableFromInline
enum LogFormat {
  /// The version of the format this library writes (and the newest it reads).
  ///
  /// - 2: a chart's entries list, among its effects, the sends, cancels and messages it asked
  ///   for, as the commands a table would emit (see ``ChartStep/effects``).
  /// - 1 (0.1.0): a chart's entries list its `.effect` outputs alone. Such a log still
  ///   replays: an entry matches when it lists either.
  @usableFromInline static var version: Int { 2 }
  /// The oldest version this library reads.
  @usableFromInline static var oldestVersion: Int { 1 }
  /// The first version whose chart entries list every command a step asked for; before it,
  /// an entry may list the `.effect` outputs alone, and replay accepts either.
  @usableFromInline static var chartsListCommands: Int { 2 }
  /// The versions this library reads.
  static var readable: ClosedRange<Int> { oldestVersion...version }
}
