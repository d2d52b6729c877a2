/// The children's side of a system's replay: each child's lines checked against a machine of
/// its own, made from the ``ChildMachine`` that the replayed parent started (a root entry's
/// effects, or a child's step's, or its start's), in its initial state, as the running system
/// made it. A line of a child that no replayed step started, and a step that differs, are
/// divergences naming the child's path.
///
/// The root's entries are checked by the root's own replayer; this keeps the order of
/// everything found, and the log's line numbers (the root's entries are no longer on line
/// `sequence + 1` once children's lines come between them).
@usableFromInline
struct SystemReplay {
  /// The children started so far, by path (below the root).
  var children: [String: any ChildReplaying] = [:]
  /// Every divergence, root's and children's, in the log's order.
  var divergences: [Divergence] = []
  /// Children's lines seen so far (replayed or not).
  var linesSeen = 0
  /// Children's steps replayed.
  var childSteps = 0
  let reportsAll: Bool
  /// Whether the root's effects can start children (they are ``Command``s).
  @usableFromInline let effectsInvoke: Bool

  /// The version of the log's format (see ``LogHeader/version``).
  let formatVersion: Int

  @usableFromInline
  init<Effect>(reportsAll: Bool, effects: Effect.Type, formatVersion: Int) {
    (self.reportsAll, effectsInvoke, self.formatVersion) = (reportsAll, effects is any ChildInvoking.Type, formatVersion)
  }

  /// Whether the replay has stopped at a divergence (unless all are reported).
  @usableFromInline
  var isDone: Bool { !reportsAll && !divergences.isEmpty }

  /// The root checked its entry `sequence`, finding `found` (none or one).
  @usableFromInline
  mutating func rootChecked(_ sequence: Int, divergences found: ArraySlice<Divergence>) {
    for divergence in found {
      divergences.append(
        Divergence(
          sequence: divergence.sequence, line: sequence + 1 + linesSeen, machine: nil, event: divergence.event,
          differences: divergence.differences))
    }
  }

  /// A step of the machine at `path` (`nil`: the root) started these children: each replaces
  /// any child of the same id, and its start may start children of its own.
  @usableFromInline
  mutating func started(_ invocations: [ChildInvocation], below path: String?) {
    for invocation in invocations {
      let child = path.map { "\($0)/\(invocation.id)" } ?? invocation.id
      // A new child of this id replaces the running one, and the old one's children with it
      // (there are some only below a child that was there: most starts look at nothing else).
      if children.removeValue(forKey: child) != nil { children = children.filter { !$0.key.hasPrefix(child + "/") } }
      let replay = invocation.replay?() ?? UnrunnableChildReplay(name: invocation.name)
      children[child] = replay
      started(replay.started, below: child)
    }
  }

  /// Checks children's lines, in order.
  @usableFromInline
  mutating func check(_ lines: some Collection<ChildLogLine>) {
    for line in lines {
      linesSeen += 1
      guard !isDone else { continue }
      if let how = line.ended {
        // A child's end: of one that was started. (It stays known: a step it took while its
        // parent ended it, on another thread, may be logged after the end.)
        if children[line.path] == nil {
          found(
            line, event: "(ended: \(how))",
            [.init(field: "machine", expected: "a child started by a step replayed before it", actual: "no child \(line.path) was started")])
        }
        continue
      }
      childSteps += 1
      guard let fields = ChildReplayCoding.fields(line) else {
        found(line, event: "?", [.init(field: "line", expected: "a child's step", actual: "a line that is not a JSON object")])
        continue
      }
      guard let child = children[line.path] else {
        found(
          line, event: ChildReplayCoding.text(fields["event"]),
          [.init(field: "machine", expected: "a child started by a step replayed before it", actual: "no child \(line.path) was started")])
        continue
      }
      let step = child.check(line, fields: fields, formatVersion: formatVersion)
      if !step.differences.isEmpty { found(line, event: step.event, step.differences) }
      started(step.started, below: line.path)
    }
  }

  mutating func found(_ line: ChildLogLine, event: String, _ differences: [Divergence.Difference]) {
    divergences.append(Divergence(sequence: line.sequence, line: line.line, machine: line.path, event: event, differences: differences))
  }

  /// The whole report: the root's entries replayed, and the children's steps.
  @usableFromInline
  func report(root: ReplayReport) -> ReplayReport {
    // A single machine's log: the root's report as it is.
    guard linesSeen > 0 else { return root }
    return ReplayReport(replayed: root.replayed, childSteps: childSteps, divergences: divergences)
  }
}
