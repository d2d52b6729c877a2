extension Chart {
  /// What ``check()`` finds in the charts this chart invokes (``ChartInvoke``; theirs too), each
  /// finding led by the invocation it is in (`the chart invoked as 'w' in 'session'
  /// (worker.scxml): unreachable: …`), and each `done.invoke.<id>` a transition waits for that
  /// never comes: the chart invoked as `<id>` has no final state at its top level, so it never
  /// halts.
  func invokeFindings() -> [Finding] {
    var findings: [Finding] = []
    let named = Set(eventNames)
    for s in 1..<count {
      for (n, invoke) in tables.invokes[s].enumerated() {
        let id = invoke.invocationID(inState: label(s), at: n)
        let place = "the chart invoked as '\(id)' in '\(label(s))'" + (invoke.source.map { " (\($0))" } ?? "")
        for finding in invoke.chart.check() {
          findings.append(Finding(kind: finding.kind, message: "\(place): \(finding.message)", rows: []))
        }
        if named.contains("done.invoke.\(id)"), !invoke.chart.haltsAtItsTop {
          findings.append(Finding(
            kind: .problem,
            message: "a transition waits for 'done.invoke.\(id)', which never comes: \(place) has no final state at its top level, so it never halts",
            rows: []))
        }
      }
    }
    return findings
  }

  /// Whether the chart has a final state at its top level (a child of its root), where it
  /// halts.
  var haltsAtItsTop: Bool { (1..<count).contains { parents[$0] == 0 && kinds[$0] == .final } }
}
