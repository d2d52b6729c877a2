/// Shrinks a failing event sequence, for tables and charts alike: whole chunks first (halves,
/// quarters, ... single events), each kept out while the same property still fails, then each
/// event replaced by a simpler one when that still fails; over again until nothing changes. A
/// candidate that fails is cut after the event that broke the property. The result is
/// 1-minimal: removing any one event, or simplifying any one, makes it pass.
@usableFromInline
struct Shrinking<Event> {
  /// The prefix of `events` that fails the property being shrunk for (the same property), or
  /// `nil` when they do not fail it.
  @usableFromInline let failing: ([Event]) -> [Event]?
  /// Simpler events to try in place of one.
  @usableFromInline let simpler: (Event) -> [Event]

  @usableFromInline
  init(failing: @escaping ([Event]) -> [Event]?, simpler: @escaping (Event) -> [Event] = { _ in [] }) {
    (self.failing, self.simpler) = (failing, simpler)
  }

  /// `events` (which fail) shrunk.
  @usableFromInline
  func shrink(_ events: [Event]) -> [Event] {
    var current = failing(events) ?? events
    var improved = true
    while improved {
      improved = false
      var chunk = max(1, current.count / 2)
      while chunk >= 1 {
        var start = 0
        while start < current.count {
          var candidate = current
          candidate.removeSubrange(start..<min(current.count, start + chunk))
          if let prefix = failing(candidate) {
            current = prefix
            improved = true
          } else {
            start += chunk
          }
        }
        chunk /= 2
      }
      for i in current.indices {
        for simpler in simpler(current[i]) {
          var candidate = current
          candidate[i] = simpler
          if let prefix = failing(candidate) {
            current = prefix
            improved = true
            break
          }
        }
        // A simpler event may have cut the sequence after it.
        if i + 1 >= current.count { break }
      }
    }
    return current
  }
}
