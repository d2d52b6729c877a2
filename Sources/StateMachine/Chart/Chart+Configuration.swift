/// A configuration of the chart, as the ids users know: what a machine and a store's engine
/// (which keeps a configuration without a machine) both read.
extension Chart {
  /// The atomic states of `bits`, in document order.
  @inlinable
  func configuration(of bits: StateBits) -> [ID] {
    var states: [ID] = []
    _ = forEachAtomic(in: bits) { states.append($0); return true }
    return states
  }

  /// Whether `configuration` is `configuration(of: bits)`, read without making that array (a
  /// replay compares every step's configuration with the logged one).
  @inlinable
  func configuration(of bits: StateBits, is configuration: [ID]) -> Bool {
    var next = 0
    let matched = forEachAtomic(in: bits) { id in
      guard next < configuration.count, configuration[next] == id else { return false }
      next += 1
      return true
    }
    return matched && next == configuration.count
  }

  /// Calls `body` with the id of each atomic state of `bits`, in document order, while it
  /// returns true; whether it always did.
  @inlinable @inline(__always)
  func forEachAtomic(in bits: StateBits, _ body: (ID) -> Bool) -> Bool {
    let kinds = self.kinds
    let ids = self.ids
    for s in 1..<kinds.count where bits[s] && (kinds[s] == .atomic || kinds[s] == .final) {
      if let id = ids[s], !body(id) { return false }
    }
    return true
  }

  /// Every state of `bits` (compound and parallel ones included), in document order.
  @inlinable
  func activeStates(of bits: StateBits) -> [ID] {
    var states: [ID] = []
    let ids = self.ids
    for s in 1..<ids.count where bits[s] {
      if let id = ids[s] { states.append(id) }
    }
    return states
  }

  /// Whether `state` is one of `bits`.
  func isActive(_ state: ID, in bits: StateBits) -> Bool { index[state].map { bits[$0] } ?? false }

  /// What each history state of `history` (by index) remembers, by id.
  @inlinable
  func historyValues(of history: [Int: [Int]]) -> [ID: [ID]] {
    guard !history.isEmpty else { return [:] }
    var values: [ID: [ID]] = [:]
    for (h, states) in history { if let id = ids[h] { values[id] = states.compactMap { ids[$0] } } }
    return values
  }
}

extension Chart {
  /// Whether `state` is active in `configuration` (active atomic states): one of them is the
  /// state or a descendant of it.
  func isActive(_ state: ID, inConfiguration configuration: [ID]) -> Bool {
    guard let target = index[state] else { return false }
    for id in configuration {
      guard var s = index[id] else { continue }
      while s >= 0 {
        if s == target { return true }
        s = s > 0 ? parents[s] : -1
      }
    }
    return false
  }
}
