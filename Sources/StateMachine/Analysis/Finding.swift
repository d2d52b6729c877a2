/// One finding of ``TransitionTable/check()``: a validation problem or an analysis result that
/// needs the author's attention.
public struct Finding: Hashable, Sendable, CustomStringConvertible {
  /// What kind of finding this is.
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
  /// the policy is ``InvalidTransitionPolicy/reject``, every unhandled (state, event) pair.
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
      findings += analysis.unhandled.map {
        Finding(
          kind: .unhandled,
          message: "no row handles '\($0.event)' in '\($0.state)' (add a row, an ignore row, or use the ignore policy)",
          rows: [])
      }
    }
    return findings
  }
}
