/// What a store keeps about its children, behind the store's lock: the running ones, those
/// whose stores are still finishing, for ``Store/finish()`` to wait for, the loop bound's
/// count, and the child last found by id. Made on the first child a store starts, in the
/// store's ``Rare`` (a store without children or waiters carries one empty word for both).
///
/// A child is a running effect until its store has started (its invoke kept with the others,
/// its handle pending); then it moves here, kept by its token with only the state it belongs
/// to: its id, scope and description are its own (``RunningChild``), so its parent does not
/// keep its invoke's command too (an idle child's size is most of what it costs). It is still
/// found by id as any effect is (`byID`), and cancelled with its state's (`owned`).
///
/// (Its fields are read and written only under the store's lock, so their exclusivity needs no
/// check at run time.)
@usableFromInline
final class Family {
  /// A running child whose store has started: the state it belongs to, and its run.
  @usableFromInline
  struct Child {
    @usableFromInline let run: RunningChild
    /// (32 bits: with the run's one word, a child takes 16 bytes here.)
    @usableFromInline let state: Int32

    @inlinable
    init(owner: Int, run: RunningChild) { (self.run, state) = (run, Int32(owner)) }

    /// The state it belongs to (an index of the engine's).
    @inlinable var owner: Int { Int(state) }
  }

  /// A child whose store is finishing: the task finishing it, once it is known (the task holds
  /// the child until it ends).
  @usableFromInline
  struct Stopping {
    @usableFromInline var task: Task<Void, Never>?

    @inlinable
    init() { task = nil }
  }

  /// The running children whose stores have started, by token.
  @exclusivity(unchecked) @usableFromInline var children: [UInt64: Child] = [:]
  /// Children cancelled or done whose stores are still finishing.
  @exclusivity(unchecked) @usableFromInline var stopping: [ObjectIdentifier: Stopping] = [:]
  /// Started children that ended on their own (done) outside the drain, forgotten here, whose
  /// stores the thread that ended them has yet to stop (a child that failed as it started has
  /// no store to stop, and is not counted): until it has, they are in neither `children` nor
  /// `stopping`, and ``StoreRuntime/childrenStopped()`` waits for them with `endingWaiters`.
  @exclusivity(unchecked) @usableFromInline var ending = 0
  @exclusivity(unchecked) @usableFromInline var endingWaiters: [CheckedContinuation<Bool, Never>] = []
  /// How many events the store's children fed it so.
  @exclusivity(unchecked) @usableFromInline var fed = 0
  /// Where the current cascade began: the store's step count and `fed` then.
  @exclusivity(unchecked) @usableFromInline var cascadeStart = (steps: 0, fed: 0)
  /// The step count and `fed` when the cascade was last refused as a loop, until a step begins
  /// a new one.
  @exclusivity(unchecked) @usableFromInline var refusedAt: (steps: Int, fed: Int)?
  /// The child last found by id: messages to one child come in runs, and comparing a short id
  /// costs less than hashing it. Forgotten whenever a child stops running.
  @exclusivity(unchecked) @usableFromInline var last: (id: String, child: RunningChild)?
  /// The ids of the children that ended (on their own, or cancelled), and the store's step
  /// count then: those that ended in that step (see ``endedDuring(_:step:)``).
  @exclusivity(unchecked) @usableFromInline var ended = EndedChildren()

  /// The running child `id` (attached: its store started); `byID` is the store's index of
  /// running effects by id.
  @inlinable
  func child(_ id: Substring, byID: [EffectID: UInt64]) -> RunningChild? {
    // (Compared as a substring: made a string first, a message from outside to the last child
    // took 12% longer. A step's message to an id is looked up as a string, with no substring:
    // see ``StoreCore/receiver(ofOther:in:limit:)``.)
    if let last, last.id == id { return last.child }
    return child(named: String(id), byID: byID)
  }

  /// The running child `name`, not the last one found (see ``child(_:byID:)``).
  @inlinable
  func child(named name: String, byID: [EffectID: UInt64]) -> RunningChild? {
    var found: RunningChild?
    if children.scans {
      // A few children are compared by id, one by one: two hashed lookups (the id's token, then
      // the token's child) cost more than that. (A store has one child per id: a new one
      // replaces it.)
      for child in children.values where child.run.hasID(name) {
        found = child.run
        break
      }
    } else {
      found = byID[EffectID(name)].flatMap { children[$0]?.run }
    }
    guard let found else {
      // SCXML's `#_<id>`: the child `id` (when no child's id is the whole target).
      return MachineMessage.invokedID(in: name).flatMap { child(named: $0, byID: byID) }
    }
    last = (name, found)
    return found
  }

  @inlinable
  init() {}

  /// The child `id` ended (done, failed, or cancelled) when the store's step count was `steps`.
  @usableFromInline
  func noteEnded(_ id: String, atStep steps: Int) { ended.note(id, atStep: steps) }

  /// Whether the child `target` names (its id, or SCXML's `#_<id>`) ended in the store's step
  /// `steps`: a message that step sent it was sent while it ran, as SCXML sends each one of a
  /// macrostep before the child takes any (and a state's `<onexit>` before its invocations are
  /// cancelled), and an SCXML session that ended drops what was queued for it. The message is
  /// refused as sent to a store that has finished (``SendRejection/finished``, reported failed)
  /// and raises no `error.communication`. (A store delivers each message at once, and its child
  /// steps on it at once, after the step's cancellations: a child the step's first message
  /// finished, or whose state it left, is gone by then.)
  @usableFromInline
  func endedDuring(_ target: some StringProtocol, step steps: Int) -> Bool { ended.contain(String(target), atStep: steps) }

  /// See ``StoreCore/beginFeeding(limit:)``; `steps` is the store's step count.
  @inlinable
  func beginFeeding(atStep steps: Int, limit: Int) -> Bool {
    if let refused = refusedAt {
      // The loop's own step refuses all it asks for.
      if steps == refused.steps { return false }
      // A later step with nothing fed since the refusal came from outside: a new cascade. (Its
      // last step fed nothing, so the count below would take this one for the loop's.)
      if fed == refused.fed { cascadeStart = (steps - 1, fed) }
      refusedAt = nil
    }
    let length = steps - cascadeStart.steps
    if length > fed - cascadeStart.fed + 1 {
      // This step is the new cascade's first.
      cascadeStart = (steps - 1, fed)
    } else if length >= limit {
      refusedAt = (steps, fed)
      return false
    }
    return true
  }
}

extension StoreCore {
  /// The family, made now if needed.
  @inlinable
  mutating func makeFamily() -> Family {
    let rare = makeRare()
    if rare.family == nil { rare.family = Family() }
    return rare.family!
  }

  /// Attaches the started `child` to the effect `token`; `false` when that effect was cancelled
  /// (or ended) meanwhile.
  @inlinable
  mutating func attach(child: RunningChild, to token: UInt64) -> Bool {
    guard let entry = running[token], entry.id != nil else { return false }
    running[token] = nil
    let family = makeFamily()
    family.children[token] = Family.Child(owner: entry.owner, run: child)
    family.last = nil
    return true
  }

  /// The running children (attached), by id, in no order.
  @inlinable
  var runningChildren: [(id: String, child: RunningChild)] {
    guard let family else { return [] }
    return family.children.values.map { ($0.run.effectID.name, $0.run) }
  }

  /// The drainer is about to deliver a message or start a child; `false` when that would go on
  /// a loop between machines: when each of the last `limit` steps could have been fed by an
  /// event this store's children said while it delivered or started (a parent and child
  /// messaging each other back and forth, a child that is done at its start restarted on its
  /// done event), with no event from outside among them. Any other step begins a new cascade.
  /// (A child's event that arrives from another thread while the drainer delivers counts as
  /// fed: it can make a cascade look longer, never a loop shorter.)
  @inlinable
  mutating func beginFeeding(limit: Int) -> Bool { makeFamily().beginFeeding(atStep: steps, limit: limit) }

  /// An event arrives from a child: counted as fed when the drainer is delivering or starting
  /// (`feeding`: see ``StoreRuntime/feeding``).
  @inlinable
  mutating func childEventArrived(feeding: Bool) { if feeding, let family { family.fed += 1 } }

  /// The receiver of a message to `path`: the running child its first id names, or why it
  /// is refused (no such child; or, `feeding` (the drainer delivers it), a loop: see
  /// ``beginFeeding(limit:)``).
  @inlinable
  mutating func receiver(ofPath path: Substring, feeding: Bool, limit: Int) -> MessageReceiver {
    guard let family else {
      return !feeding || makeFamily().beginFeeding(atStep: steps, limit: limit) ? .refused(.unknownTarget) : .refused(.loop)
    }
    return receiver(ofPath: path, in: family, feeding: feeding, limit: limit)
  }

  /// ``receiver(ofPath:feeding:limit:)`` in `family`, the store's. (The family is fetched once
  /// and handed down: fetched anew by each step of the lookup, it was retained and released
  /// each time.)
  @inlinable
  func receiver(ofPath path: Substring, in family: Family, feeding: Bool, limit: Int) -> MessageReceiver {
    let slash = path.utf8.firstIndex(of: UInt8(ascii: "/"))
    let child = family.child(slash.map { path[..<$0] } ?? path, byID: byID)
    if feeding, !family.beginFeeding(atStep: steps, limit: limit) { return .refused(.loop) }
    guard let child else {
      // (Only a step's message: one from outside is not sent while the child ran.)
      return feeding && slash == nil && family.endedDuring(path, step: steps) ? .ended : .refused(.unknownTarget)
    }
    return .child(child, nested: slash != nil)
  }

  /// Whether a child runs (attached) at `target` (an id, or SCXML's `#_<id>`).
  @inlinable
  mutating func runsChild(_ target: String) -> Bool { family?.child(named: target, byID: byID) != nil }

  /// The receiver of a step's one message (``StoreEngine/isMessaging(_:)``), found under the
  /// lock that keeps the step, so that delivering it takes no lock of its own; one read back
  /// from a log, which carries nothing to deliver, is refused.
  @inlinable
  mutating func receiver(of message: MachineMessage, limit: Int) -> MessageReceiver {
    guard message.isDeliverable else { return .refused(.wrongType) }
    // (A message to no child is counted toward a loop too: an `error.communication` answered
    // with the same message again, see `StoreRuntime.communicationFailed`.)
    guard let family else { return makeFamily().beginFeeding(atStep: steps, limit: limit) ? .refused(.unknownTarget) : .refused(.loop) }
    // To the child last found (messages come in runs): its id is the whole target, as an id
    // has no `/`, so there is no path to split and nothing to look up.
    if let last = family.last, last.id == message.target {
      return family.beginFeeding(atStep: steps, limit: limit) ? .child(last.child, nested: false) : .refused(.loop)
    }
    return receiver(ofOther: message.target, in: family, limit: limit)
  }

  /// The receiver of a message to `target`, not the child last found. The whole target is
  /// looked up first, as the string it is: an id holds no `/`, so a child found is the one, and
  /// only a target no child has is searched for a path to split. (Split as a substring first,
  /// it was compared through the standard library's general comparison: most of the 90 ns a
  /// message to a child other than the last cost more. Not inlined: it is off the path of a
  /// message to the last child, which the drain loop inlines.)
  @inlinable @inline(never)
  func receiver(ofOther target: String, in family: Family, limit: Int) -> MessageReceiver {
    if let child = family.child(named: target, byID: byID) {
      return family.beginFeeding(atStep: steps, limit: limit) ? .child(child, nested: false) : .refused(.loop)
    }
    guard target.utf8.contains(UInt8(ascii: "/")) else {
      guard family.beginFeeding(atStep: steps, limit: limit) else { return .refused(.loop) }
      return family.endedDuring(target, step: steps) ? .ended : .refused(.unknownTarget)
    }
    return receiver(ofPath: Substring(target), in: family, feeding: true, limit: limit)
  }

  /// A child restored from a snapshot, registered as the running effect `command` (an invoke)
  /// belonging to state `owner`, its handle to be attached; returns its token.
  @usableFromInline
  mutating func registerRestored(_ command: Effect, owner: Int) -> UInt64 {
    // (A snapshot names each child once: nothing of its id runs yet to be replaced.)
    enroll(command, owner: owner).token
  }

  /// A child whose store is finishing.
  @inlinable
  mutating func stopping(_ child: RunningChild) { makeFamily().stopping[ObjectIdentifier(child)] = Family.Stopping() }

  /// The task finishing the stopping `child`'s store (nothing when it has finished already).
  @inlinable
  mutating func stopTask(_ task: Task<Void, Never>, of child: ObjectIdentifier) { family?.stopping[child]?.task = task }

  /// The tasks finishing the stopping children's stores, known so far.
  @inlinable
  var stoppingTasks: [Task<Void, Never>] { family?.stopping.values.compactMap(\.task) ?? [] }

  /// A child that ended on its own was forgotten, and its store is about to be stopped (see
  /// ``Family/ending``).
  @usableFromInline
  mutating func childEnding() { makeFamily().ending += 1 }

  /// A child counted by ``childEnding()`` has been stopped (its store finished, or among the
  /// stopping ones with its task): the waiters to resume once none is left.
  @usableFromInline
  mutating func childEndStopped() -> [CheckedContinuation<Bool, Never>] {
    guard let family else { preconditionFailure("invalid state: a child ended with no family to count it") }
    family.ending -= 1
    guard family.ending == 0, !family.endingWaiters.isEmpty else { return [] }
    defer { family.endingWaiters = [] }
    return family.endingWaiters
  }

  /// Whether a child that ended on its own is still to be stopped; if one is, `waiter` is
  /// resumed once none is.
  @usableFromInline
  mutating func waitsForEndingChildren(_ waiter: CheckedContinuation<Bool, Never>) -> Bool {
    guard let family, family.ending > 0 else { return false }
    family.endingWaiters.append(waiter)
    return true
  }
}

/// Where a message goes, found before it is delivered: the running child its path begins
/// with, or why it is refused.
@usableFromInline
enum MessageReceiver {
  /// The child the path's first id names; `nested`: the path goes on below it.
  case child(RunningChild, nested: Bool)
  /// The child the path names ended in this step (on its own, or its state left): the
  /// message is refused as sent to a store that finished, and raises no communication error
  /// (see ``Family/endedDuring(_:step:)``).
  case ended
  case refused(SendRejection)
}
