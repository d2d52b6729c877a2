/// Which events a configuration can take a transition on, by name: what a walk that sends only
/// events the machine may handle (and a screen that enables only those) asks.
extension Chart {
  /// Whether some transition of a state in `configuration` (its active atomic states) or of one
  /// of their ancestors names the event called `name`, guards aside: as SCXML matches a
  /// transition's event descriptors, `name` itself, a prefix of it that ends before a `.`
  /// (`"error"` names `"error.execution"`), or `*`.
  ///
  /// ```swift
  /// chart.mayHandle(eventNamed: "play", in: ["stopped"])   // true: stopped has a play transition
  /// ```
  @usableFromInline package func mayHandle(eventNamed name: String, in configuration: [ID]) -> Bool {
    // Ancestors shared by several active states (a parallel state's) are looked at once per
    // state: cheaper than a set of the ones seen, for configurations of a few states.
    for id in configuration {
      guard var s = index[id] else { continue }
      while s > 0 {
        for t in stateTransitions[s] where descriptors[t].contains(where: { eventDescriptor($0, matches: name) }) { return true }
        s = parents[s]
      }
    }
    return false
  }
}

/// Whether the event descriptor `d` matches the event called `name` (SCXML 3.12.1): `*`, the
/// name itself, or a prefix of it that ends before a `.`.
func eventDescriptor(_ d: String, matches name: String) -> Bool {
  d == "*" || d == name
    || (name.hasPrefix(d) && name.utf8.count > d.utf8.count
      && name.utf8[name.utf8.index(name.utf8.startIndex, offsetBy: d.utf8.count)] == UInt8(ascii: "."))
}
