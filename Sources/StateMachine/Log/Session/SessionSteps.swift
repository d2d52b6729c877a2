import Foundation

/// A recorded session as a page shows it (`fsm view`): each step's event, configuration,
/// effects, time and context as they read, in arrays by step (step 0 is where the log starts),
/// the machine's states, and where the log first diverges from the machine.
package struct SessionSteps: Sendable {
  /// The machine's name.
  package var machine: String
  /// Per step: its event as it reads (`""` for step 0).
  package var events: [String] = []
  /// Per step: where the machine was after it, as it reads (a table's state; a chart's active
  /// states joined by `, `).
  package var configurations: [String] = []
  /// Per step: the active states' names (a table's one state; a chart's active atomic states).
  package var active: [[String]] = []
  /// Per step: its outcome (`transitioned`, `stayed`, `ignored`, `rejected`; `""` for step 0).
  package var outcomes: [String] = []
  /// Per step: its effects as they read.
  package var effects: [[String]] = []
  /// Per step: seconds on the store's clock, when logged.
  package var times: [Double?] = []
  /// Per step: the context after it, as compact JSON.
  package var contexts: [String] = []
  /// The machine's states, outermost first, each with its children.
  package var states: [SessionState] = []
  /// The first divergence of the log from the machine, if any.
  package var divergence: Divergence?
  /// The step the first divergence shows at: its entry's, or, for a child's step, the root's
  /// step it came before (a child's line logged after entry `k` shows at step `k + 1`).
  package var divergenceStep: Int?
  /// A system's log: each child machine's steps, by path, in the order they were taken.
  package var lanes: [SessionLane] = []

  /// The steps of `log`, each state shown by `show` and named by `names`.
  package init<State, Event, Context, Effect>(
    _ log: EventLog<State, Event, Context, Effect>, states: [SessionState], divergence: Divergence?,
    show: (State) -> String, names: (State) -> [String]
  ) {
    machine = log.header.machine
    self.states = states
    self.divergence = divergence
    // Compact: the page lays a context out when it shows it.
    let encoder = AnyJSON.encoder
    func json(_ context: Context) -> String {
      (try? encoder.encode(context)).map { String(decoding: $0, as: UTF8.self) } ?? "\(context)"
    }
    let count = log.entries.count + 1
    events.reserveCapacity(count)
    configurations.reserveCapacity(count)
    (events, configurations, active) = ([""], [show(log.header.state)], [names(log.header.state)])
    (outcomes, effects, times, contexts) = ([""], [[]], [nil], [json(log.header.context)])
    for entry in log.entries {
      events.append("\(entry.event)")
      configurations.append(show(entry.state))
      active.append(names(entry.state))
      outcomes.append(entry.outcome.description)
      effects.append(entry.effects.map { "\($0)" })
      times.append(entry.time)
      contexts.append(json(entry.context))
    }
    // The children each root entry started, from the step that started them.
    let invoked = log.entries.map { entry in entry.effects.compactMap { ($0 as? any ChildInvoking)?.invocation?.id } }
    lanes = SessionLane.lanes(of: log.childLines, invoked: invoked)
    if let divergence {
      if let path = divergence.machine {
        let line = log.childLines.first { $0.path == path && $0.sequence == divergence.sequence }
        divergenceStep = min(count - 1, (line?.afterEntry ?? 0) + 1)
      } else {
        divergenceStep = divergence.sequence
      }
    }
  }
}

/// One child machine's steps in a system's log (see ``ChildLogLine``), as a page shows them.
package struct SessionLane: Sendable, Hashable {
  /// The child's path (`upload/file-3`).
  package var path: String
  /// Per child step: the root's step it came after (its entry's sequence; 0: the start).
  package var after: [Int] = []
  /// Per child step: its event and where it left the child, as they read.
  package var events: [String] = []
  package var states: [String] = []

  package init(path: String) { self.path = path }

  /// The lanes of `lines`, one per path, in the order each path first appears: each child's
  /// steps, its end as a step `(ended)` that leaves it `(finished)`, `(cancelled)` or
  /// `(failed: …)`, and, as a step `(invoked)` that leaves it `(started)`, each start of a
  /// child by a root entry (`invoked[k]`: the ids entry `k + 1` started) or by a child's line
  /// (its `invoke` effects, below its path). A child started before the log began, or whose
  /// start the log does not name, shows from its first line.
  package static func lanes(of lines: [ChildLogLine], invoked: [[String]] = []) -> [SessionLane] {
    var lanes: [SessionLane] = []
    var index: [String: Int] = [:]
    func add(_ path: String, after: Int, event: String, state: String) {
      let number = index[path] ?? lanes.count
      if number == lanes.count {
        index[path] = number
        lanes.append(SessionLane(path: path))
      }
      lanes[number].after.append(after)
      lanes[number].events.append(event)
      lanes[number].states.append(state)
    }
    // Root entry `k + 1`'s starts come after the lines logged before it (after entry `k`).
    var entry = 0
    func startsUpTo(_ last: Int) {
      while entry < min(last, invoked.count) {
        for id in invoked[entry] { add(id, after: entry, event: "(invoked)", state: "(started)") }
        entry += 1
      }
    }
    for line in lines {
      startsUpTo(line.afterEntry)
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any] else { continue }
      if let how = line.ended {
        // Its end: where the lane leaves it.
        add(line.path, after: line.afterEntry, event: "(ended)", state: ChildLogLine.shownEnd(how, error: object["error"] as? String))
        continue
      }
      add(line.path, after: line.afterEntry, event: shown(object["event"]), state: shown(object["state"]))
      for effect in object["effects"] as? [Any] ?? [] {
        guard let id = ((effect as? [String: Any])?["invoke"] as? [String: Any])?["id"] as? String else { continue }
        add(line.path + "/" + id, after: line.afterEntry, event: "(invoked)", state: "(started)")
      }
    }
    startsUpTo(invoked.count)
    return lanes
  }

  /// A logged value as it reads: a string as itself, a chart's state as its configuration,
  /// anything else as compact JSON.
  package static func shown(_ value: Any?) -> String {
    switch value {
    case let text as String: return text
    case let object as [String: Any]:
      if let configuration = object["configuration"] as? [Any] { return configuration.map { "\($0)" }.joined(separator: ", ") }
      if object.count == 1, let (name, payload) = object.first, (payload as? [String: Any])?.isEmpty == true { return name }
      fallthrough
    default:
      guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
      else { return "" }
      return String(decoding: data, as: UTF8.self)
    }
  }
}

/// A state of a machine, as a page draws it: its name, kind and children.
package struct SessionState: Sendable, Hashable {
  package var name: String
  /// `atomic`, `compound`, `parallel`, `final` or `history`.
  package var kind: String
  package var children: [SessionState]

  package init(name: String, kind: String, children: [SessionState] = []) { (self.name, self.kind, self.children) = (name, kind, children) }
}

/// What reading a session from a log came to.
package enum SessionRead: Sendable {
  case read(SessionSteps)
  /// The log could not be read: the error, and how many entries were read before it.
  case unreadable(LogError, entries: Int)

  /// The session of a log `read` (as a kind's `EventLog.read` reads it), checked against its
  /// machine by `replay`; an unreadable log as `fsm replay` reports it.
  package static func of<State, Event, Context, Effect>(
    _ read: EventLog<State, Event, Context, Effect>.ReadResult, states: [SessionState],
    replay: (EventLog<State, Event, Context, Effect>) -> ReplayReport, show: (State) -> String, names: (State) -> [String]
  ) -> SessionRead {
    guard let log = read.log, read.error == nil else {
      return .unreadable(read.error ?? .io(path: "", detail: "unreadable"), entries: read.log?.entries.count ?? 0)
    }
    return .read(SessionSteps(log, states: states, divergence: replay(log).divergences.first, show: show, names: names))
  }
}

extension TransitionTable {
  /// The table's states, flat.
  package var sessionStates: [SessionState] {
    let finals = Set(analyze().finalStates)
    return stateCases.map { SessionState(name: "\($0)", kind: finals.contains($0) ? "final" : "atomic") }
  }
}

extension Chart {
  /// The chart's states as a tree.
  package var sessionStates: [SessionState] {
    func node(_ s: Int) -> SessionState {
      let kind: String
      switch kinds[s] {
      case .atomic: kind = "atomic"
      case .compound: kind = "compound"
      case .parallel: kind = "parallel"
      case .final: kind = "final"
      case .shallowHistory, .deepHistory: kind = "history"
      }
      let children = (1..<count).filter { parents[$0] == s && !isHistory($0) }.map(node)
      return SessionState(name: ids[s].map { "\($0)" } ?? "", kind: kind, children: children)
    }
    return (1..<count).filter { parents[$0] == 0 && !isHistory($0) }.map(node)
  }
}
