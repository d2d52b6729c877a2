/// A step one of a store's child machines took (or a child's child), as the parent's inspector
/// sees it: ``StoreReport/childStep(_:)``. Children have machines of their own types, so the step
/// is told as text.
public struct ChildStep: Sendable, Hashable, CustomStringConvertible {
  /// The child's path below the store: its id, then its children's (`"upload/file-3"`).
  public let path: String
  /// The step's number in the child's store (from 1).
  public let sequence: Int
  /// The event, as it reads.
  public let event: String
  /// Where the child was before the step.
  public let from: String
  /// Where the child is after the step.
  public let to: String
  /// The effects the step asked for, as they read.
  public let effects: [String]
  /// When the step was taken, on the clock, since the child's store was made.
  public let time: Duration
  /// The step as its parent's log records it, made only when a log asks.
  @usableFromInline let logged: (@Sendable () -> ChildLogBody)?
  /// Not a step: the child at `path` ended, on its way up to the store that records it (see
  /// ``ChildEnd``; no inspector of a user's is shown it).
  @usableFromInline let ended: ChildEnd?

  @usableFromInline
  init(
    path: String, sequence: Int, event: String, from: String, to: String, effects: [String], time: Duration,
    logged: (@Sendable () -> ChildLogBody)? = nil, ended: ChildEnd? = nil
  ) {
    (self.path, self.sequence, self.event, self.from, self.to) = (path, sequence, event, from, to)
    (self.effects, self.time, self.logged, self.ended) = (effects, time, logged, ended)
  }

  /// The end of the child `id`, told as a step is told up to its system's recorder.
  @usableFromInline
  init(endOf id: String, _ end: ChildEnd) {
    self.init(path: id, sequence: 0, event: "", from: "", to: "", effects: [], time: .zero, ended: end)
  }

  /// The step of a child's store, told with its id as its path.
  @inlinable
  init<Definition: StoreDefinition>(_ step: StoreStep<Definition>, path: String)
  where Definition.Context: Sendable, Definition.Configuration: Sendable {
    self.init(
      path: path, sequence: step.sequence, event: "\(step.event)", from: Self.shown(step.from), to: Self.shown(step.to),
      effects: step.effects.map { "\($0)" }, time: step.time, logged: { ChildLogBody.of(step) })
  }

  /// The same step, one level further down: below the child `id`.
  @usableFromInline
  func below(_ id: String) -> ChildStep {
    ChildStep(
      path: "\(id)/\(path)", sequence: sequence, event: event, from: from, to: to, effects: effects, time: time, logged: logged,
      ended: ended)
  }

  public static func == (a: ChildStep, b: ChildStep) -> Bool {
    (a.path, a.sequence, a.event, a.from, a.to) == (b.path, b.sequence, b.event, b.from, b.to) && (a.effects, a.time) == (b.effects, b.time)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(sequence)
    hasher.combine(event)
  }

  /// A configuration as it reads: a table's state, a chart's active states joined by commas
  /// (what `fsm demo` prints too).
  @usableFromInline
  package static func shown(_ configuration: some Any) -> String {
    if let states = configuration as? [any Sendable] { return states.map { "\($0)" }.joined(separator: ", ") }
    return "\(configuration)"
  }

  public var description: String {
    "\(path) #\(sequence): \(event): \(from) → \(to)" + (effects.isEmpty ? "" : " [\(effects.joined(separator: ", "))]")
  }
}
