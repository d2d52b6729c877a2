/// One finding of ``TransitionTable/check()``: a validation problem or an analysis result that
/// needs the author's attention.
public struct Finding: Hashable, Sendable, CustomStringConvertible {
  /// What kind of finding this is.
  ///
  /// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
  /// case is then a warning, not a build error).
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// A ``TableProblem``: the table is ambiguous or names unknown states.
    case problem
    /// A state no event sequence reaches.
    case unreachable
    /// A non-final state with no way out.
    case deadEnd = "dead-end"
    /// A (state, event) pair no row handles, in a table whose policy rejects such events.
    case unhandled
  }

  /// The kind of finding.
  public let kind: Kind
  /// A one-line explanation.
  public let message: String
  /// Rows (numbered from 1) the finding is about, if any.
  public let rows: [Int]

  public var description: String { "\(kind.rawValue): \(message)" }
}

extension TransitionTable {
  /// Every finding about the table: its ``problems``, unreachable states, dead ends, and, when
  /// the policy is ``InvalidTransitionPolicy/reject``, the unhandled events of each state (one
  /// finding per state).
  /// An empty result means the table is clean.
  public func check() -> [Finding] {
    let analysis = analyze()
    var findings = problems.map { Finding(kind: .problem, message: $0.description, rows: $0.rows) }
    findings += analysis.unreachable.map {
      Finding(kind: .unreachable, message: "state '\($0)' is not reachable from '\(analysis.initial)'", rows: [])
    }
    findings += analysis.deadEnds.map {
      Finding(kind: .deadEnd, message: "state '\($0)' is not final and has no way out", rows: [])
    }
    if policy == .reject {
      // One finding per state, naming at most 10 of its events: the findings stay as long as
      // the table, however many events it has.
      for gap in analysis.gaps {
        let shown = analysis.eventCases.lazy.filter { !gap.handled.contains($0) }.prefix(10).map { "'\($0)'" }
          .joined(separator: ", ")
        let more = gap.missing > 10 ? " and \(gap.missing - 10) more" : ""
        let events = gap.missing == 1 ? "event" : "events"
        findings.append(Finding(
          kind: .unhandled,
          message: "no row handles \(gap.missing) \(events) in '\(gap.state)': \(shown)\(more) (add rows, ignore rows, or use the ignore policy)",
          rows: []))
      }
    }
    return findings
  }
}
