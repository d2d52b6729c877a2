/// SCXML's conflict removal (Appendix D, `removeConflictingTransitions`): of transitions
/// enabled together, which are taken.
extension ChartMachine {
  /// Two transitions whose exit sets intersect conflict: the one whose source is a descendant
  /// of the other's wins; otherwise the one selected first (document order) does.
  ///
  /// A targeted transition's exit set is every active state below its domain, never empty, so
  /// two exit sets intersect exactly when one domain is the other or inside it. The kept
  /// transitions' domains are therefore disjoint subtrees, which lets each new transition find
  /// what it conflicts with by walking its ancestors: linear in the enabled set (times the
  /// chart's depth), where comparing exit sets pairwise is quadratic. Small sets take the
  /// pairwise reference, ``removeConflictingPairwise(_:)``.
  @usableFromInline
  func removeConflicting(_ enabled: [Int]) -> [Int] {
    guard enabled.count > 8 else { return removeConflictingPairwise(enabled) }
    var kept: [(t: Int, domain: Int?, alive: Bool)] = []
    var byDomain: [Int: Int] = [:]  // domain state → position in `kept`
    var bySource: [Int: [Int]] = [:]  // source state → positions in `kept`
    var inside: [Int: Int] = [:]  // state → kept domains strictly below it
    func count(_ domain: Int, _ delta: Int) {
      var a = chart.parents[domain]
      while a >= 0 {
        inside[a, default: 0] += delta
        a = chart.parents[a]
      }
    }
    for t1 in enabled {
      let source1 = chart.sources[t1]
      guard let d1 = transitionDomain(t1) else {
        kept.append((t1, nil, true))
        bySource[source1, default: []].append(kept.count - 1)
        continue
      }
      var conflicting: [Int] = []
      var preempted = false
      // A kept domain that is d1 or holds it (at most one: kept domains are disjoint).
      var a = d1
      while a >= 0 {
        if let k = byDomain[a] {
          if chart.isDescendant(source1, of: chart.sources[kept[k].t]) { conflicting.append(k) } else { preempted = true }
          break
        }
        a = chart.parents[a]
      }
      // Kept domains inside d1: each must belong to a transition whose source holds source1.
      let below = inside[d1] ?? 0
      if !preempted, below > 0 {
        var removable = 0
        var s = chart.parents[source1]
        while s >= 0 {
          for k in bySource[s] ?? [] where kept[k].alive {
            if let d2 = kept[k].domain, chart.isDescendant(d2, of: d1) {
              conflicting.append(k)
              removable += 1
            }
          }
          s = chart.parents[s]
        }
        if removable < below { preempted = true }
      }
      guard !preempted else { continue }
      for k in conflicting {
        kept[k].alive = false
        if let d2 = kept[k].domain {
          byDomain[d2] = nil
          count(d2, -1)
        }
      }
      kept.append((t1, d1, true))
      byDomain[d1] = kept.count - 1
      bySource[source1, default: []].append(kept.count - 1)
      count(d1, 1)
    }
    return kept.filter(\.alive).map(\.t)
  }

  /// The recommendation's pairwise comparison of exit sets: the reference
  /// ``removeConflicting(_:)`` agrees with, used as is for a few transitions.
  func removeConflictingPairwise(_ enabled: [Int]) -> [Int] {
    var filtered: [Int] = []
    var exitSets: [[Int]] = []
    for t1 in enabled {
      let exit1 = exitSet([t1])
      var preempted = false
      var remove: [Int] = []
      for (k, t2) in filtered.enumerated() where !Set(exit1).isDisjoint(with: exitSets[k]) {
        if chart.isDescendant(chart.sources[t1], of: chart.sources[t2]) {
          remove.append(k)
        } else {
          preempted = true
          break
        }
      }
      if !preempted {
        for k in remove.reversed() {
          filtered.remove(at: k)
          exitSets.remove(at: k)
        }
        filtered.append(t1)
        exitSets.append(exit1)
      }
    }
    return filtered
  }
}
