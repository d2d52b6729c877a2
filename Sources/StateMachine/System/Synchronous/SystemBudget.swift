/// How much one input to a system may cause: every step of every machine counts, and past
/// `limit` after the input's own the input fails with ``SystemRunError/tooManyEvents(limit:input:)``.
@usableFromInline
struct SystemBudget {
  @usableFromInline let limit: Int
  /// The input, described only when it fails: describing every input (its event, or the
  /// message and its path) was a third of what a system's step cost.
  @usableFromInline let input: any CustomStringConvertible
  @usableFromInline var spent = 0
  /// Whether a machine's step may have changed the system: one that a row or transition took,
  /// or any step of a machine whose unhandled steps may change it (see
  /// ``StoreEngine/unhandledStepsChangeNothing``). A system that took only steps nothing took
  /// is where it was, apart from its machines' step counts.
  @usableFromInline var changed = false
  /// Where the machines' steps are recorded, when something asks for them (`fsm view`'s
  /// simulator); a checker's steps record nothing.
  @usableFromInline let log: SystemLog?
  /// The first message a machine sent during the input that no child took, and why (see
  /// ``SystemMachine/undeliveredMessage``).
  @usableFromInline var undelivered: String?

  @inlinable
  init(limit: Int, input: any CustomStringConvertible, log: SystemLog? = nil) { (self.limit, self.input, self.log) = (limit, input, log) }

  @inlinable
  mutating func spend() throws(SystemRunError) {
    spent += 1
    guard spent <= limit + 1 else { throw SystemRunError.tooManyEvents(limit: limit, input: input.description) }
  }
}
