/// What a store keeps for each running effect and child, and what it takes out of it to cancel
/// one or report its end.
extension StoreCore {
  /// What is running for a token.
  @usableFromInline
  enum Handle {
    case pending  // registered, its task or timer not attached yet
    case task(Task<Void, Never>)
    case manualTimer(UInt64)
    /// A child machine (``Command/invoke(_:id:scope:)``).
    case child(RunningChild)
  }

  /// What a store keeps for a running effect, or a child whose store has not started yet, by
  /// its token. (Its id and scope are read from its command, and its token is its key, not kept
  /// beside them: a store keeps one per running effect.)
  @usableFromInline
  struct Entry {
    /// The state it belongs to (an index of the engine's): a state-scoped effect is cancelled
    /// when that state is left.
    @usableFromInline let owner: Int
    /// The command it runs: its description is built only when something reports it.
    @usableFromInline let command: Effect
    @usableFromInline var handle: Handle

    @inlinable
    init(owner: Int, command: Effect, handle: Handle) { (self.owner, self.command, self.handle) = (owner, command, handle) }

    /// The id it can be cancelled or replaced by.
    @inlinable var id: EffectID? { command.runningID }
    @inlinable var scope: EffectScope { command.scope }
    @usableFromInline var description: String { command.description }
  }

  /// A running effect or child taken out of the store (to cancel it, or to report its end): its
  /// token, the state it belonged to, its handle, and its command (none for a child that had
  /// started: it keeps its own id and scope, see ``Family/children``).
  @usableFromInline
  struct Running {
    @usableFromInline let token: UInt64
    @usableFromInline let owner: Int
    @usableFromInline let handle: Handle
    @usableFromInline let command: Effect?

    @inlinable
    init(token: UInt64, entry: Entry) { (self.token, owner, handle, command) = (token, entry.owner, entry.handle, entry.command) }

    @inlinable
    init(token: UInt64, child: Family.Child) { (self.token, owner, handle, command) = (token, child.owner, .child(child.run), nil) }

    /// The id it can be cancelled or replaced by. (Read through the optional in place: binding
    /// the command would copy it, on every effect's end.)
    @inlinable var id: EffectID? { command != nil ? command?.runningID : child?.effectID }
    @inlinable var scope: EffectScope { command?.scope ?? child?.effectScope ?? .global }
    @usableFromInline var description: String { command?.description ?? child?.effectDescription ?? "" }
    /// The child, when it is one that had started.
    @inlinable var child: RunningChild? {
      guard case .child(let child) = handle else { return nil }
      return child
    }
  }
}

extension StoreCore {
  /// Checks the indexes over the running effects and children: no started child is kept as an
  /// effect, `byID` and `owned` name exactly the running effects and children with an id and the
  /// running state-scoped ones of each owner, every started child is found by its id, and the
  /// child the family last found by id is the one running with it.
  func _checkInvariants() {
    for effect in running.values {
      if case .child = effect.handle { preconditionFailure("a started child kept as an effect: \(effect.description)") }
    }
    for (token, child) in family?.children ?? [:] {
      precondition(byID[child.run.effectID] == token, "a running child not found by its id: \(child.run.effectDescription)")
    }
    if let last = family?.last {
      let found = byID[EffectID(last.id)].flatMap { family?.children[$0]?.run }
      guard let child = found, child === last.child else {
        preconditionFailure("the child last found by id, \(last.id), is not the one running with that id")
      }
    }
    for (id, token) in byID {
      precondition((running[token]?.id ?? family?.children[token]?.run.effectID) == id, "byID names \(id), which is not running")
    }
    var expected: [Int: Set<UInt64>] = [:]
    for (token, effect) in running where effect.scope == .state { expected[effect.owner, default: []].insert(token) }
    for (token, child) in family?.children ?? [:] where child.run.effectScope == .state {
      expected[child.owner, default: []].insert(token)
    }
    for tokens in owned.values { precondition(tokens.all == tokens.all.sorted(), "owned tokens \(tokens.all) are not in the order they started") }
    let owns = owned.mapValues { Set($0.all) }
    precondition(owns == expected, "owned \(owns) is not the running state-scoped effects \(expected)")
  }
}
