/// What a ``SystemMachine`` input did, as a system's log records it (for `fsm view`'s
/// simulator of a system): each machine's step in the order it was taken, the root's as the
/// fields of a log entry, a child's as its line. A checker steps without one.
///
/// (A class carried in the ``SystemBudget``: the machines an input reaches add to it as they
/// step, and each child's path is the ids the input went down to reach it.)
@usableFromInline
package final class SystemLog {
  /// A step of one of the system's machines.
  package struct Line: Sendable {
    /// The child's path (`nil`: the root's step).
    package let path: String?
    /// The root's entry fields as JSON (`{"context":…,"sequence":…}`), or the child's whole line
    /// (`{"child":"a.jpg",…}`); `nil` when the step cannot be written (``unrecordable``).
    package let json: String?
    /// Why the step cannot be written: a type of its machine is not `Encodable`.
    package let unrecordable: String?
    /// The step as it reads: `[a.jpg] succeeded: sending → sent`, its effects after it.
    package let shown: String
  }

  /// The steps taken, in order.
  package private(set) var lines: [Line] = []
  /// The ids from the root down to the machine stepping now.
  @usableFromInline var path: [String] = []

  package init() {}

  /// The machine stepping now is the child `id` of the one that was.
  @usableFromInline
  func enter(_ id: String) { path.append(id) }

  @usableFromInline
  func leave() { path.removeLast() }

  /// Records a step of the machine stepping now.
  @inlinable
  func record<Definition: StoreDefinition>(_ step: StoreStep<Definition>)
  where Definition.Context: Sendable, Definition.Configuration: Sendable {
    let effects = step.effects.isEmpty ? "" : " [" + step.effects.map { "\($0)" }.joined(separator: ", ") + "]"
    add(ChildLogBody.of(step), shown: "\(step.event): \(ChildStep.shown(step.from)) → \(ChildStep.shown(step.to))" + effects)
  }

  /// Records the end of the child `id` of the machine stepping now, and of its descendants at
  /// `below` (their paths under it, which end with it, cancelled), as a store's log does (see
  /// ``ChildEnd``).
  @usableFromInline
  func ended(_ id: String, _ end: ChildEnd, below: [String] = []) {
    let path = (self.path + [id]).joined(separator: "/")
    for (path, end) in [(path, end)] + below.map({ ("\(path)/\($0)", ChildEnd(.cancelled)) }) {
      let json = String(decoding: ChildLogBody.line(path: path, fields: end.fields), as: UTF8.self)
      let error = end.error.map { " (\($0))" } ?? ""
      lines.append(Line(path: path, json: json, unrecordable: nil, shown: "[\(path)] ended: \(end.how.rawValue)\(error)"))
    }
  }

  @usableFromInline
  func add(_ body: ChildLogBody, shown: String) {
    let child = path.isEmpty ? nil : path.joined(separator: "/")
    let shown = child.map { "[\($0)] " + shown } ?? shown
    switch body {
    case .fields(let fields):
      let bytes = child.map { ChildLogBody.line(path: $0, fields: fields) } ?? fields
      lines.append(Line(path: child, json: String(decoding: bytes, as: UTF8.self), unrecordable: nil, shown: shown))
    case .unrecordable(let reason):
      lines.append(Line(path: child, json: nil, unrecordable: "\(child.map { "child \($0)" } ?? "the root"): \(reason)", shown: shown))
    }
  }
}
