extension TransitionTable {
  /// The compiled form of a table, shared by every copy of it and every machine running it.
  ///
  /// Rows are specialised per source state (wildcards expanded, targets resolved to dense
  /// indices, exit + row + entry effects concatenated once) and laid out as parallel arrays,
  /// so the step scans a few contiguous event cases and copies no row.
  ///
  /// The hot fields live in unsafe buffers (no bounds checks, no array headers on the hot
  /// path). They are written once in `init` and freed in `deinit`, never mutated in between,
  /// which is why sharing the storage across tasks is safe (`@unchecked Sendable`).
  @usableFromInline
  final class Storage: @unchecked Sendable {
    /// The per-row fields every step reads, packed together.
    @usableFromInline
    struct Hot: Sendable {
      /// Target state's position (its index `<< shift`, see ``TransitionTable/position(of:)``),
      /// or ``stay``, ``ignore``, ``make``.
      @usableFromInline var target: Int32
      /// Next candidate with the same event in the same state, or -1 (dense dispatch).
      @usableFromInline var next: Int32
      /// Index of the compiled row (its cold fields).
      @usableFromInline var compiled: Int32
      /// ``hasGuard``, ``hasUpdate``, ``hasMadeEffects``, ``hasManyEffects``; 0 for a row the
      /// step applies inline.
      @usableFromInline var flags: UInt8
    }
    @usableFromInline static var hasGuard: UInt8 { 1 }
    @usableFromInline static var hasUpdate: UInt8 { 2 }
    @usableFromInline static var hasMadeEffects: UInt8 { 4 }
    /// More than one fixed effect: the step copies the shared array instead of one value.
    @usableFromInline static var hasManyEffects: UInt8 { 8 }
    /// A row's guard: the ``Guard``'s own box, shared by the rows made with it and retained
    /// once per row when the table is built (released in `deinit`). The step calls it through
    /// `Unmanaged._withUnsafeGuaranteedRef`, safe because the storage keeps it alive: loading a
    /// closure from an array would retain and release its context on every guarded step.
    @usableFromInline
    typealias Predicate = Guard<Context, Event>.Box

    /// A row's update, boxed so that the step calls it as it calls a guard: through
    /// `Unmanaged._withUnsafeGuaranteedRef`, with no reference counting. (Loaded from an array,
    /// the closure's context was retained and released on every step that ran it: the shipped
    /// login table's steps took about 9% longer.) Retained once per row, released in `deinit`.
    @usableFromInline
    final class Updater: Sendable {
      @usableFromInline let update: Row.Update
      init(_ update: @escaping Row.Update) { self.update = update }
    }

    /// A row's one made effect, boxed for the same reason as ``Updater``.
    @usableFromInline
    final class Maker: Sendable {
      @usableFromInline let make: @Sendable (Context, Event) -> Effect?
      init(_ make: @escaping @Sendable (Context, Event) -> Effect?) { self.make = make }
    }

    /// One (state, event) pair of dense dispatch, eight bytes so that finding it is one
    /// scaled load. A row the step applies inline (no guard, no update, a fixed target and at
    /// most one fixed effect) has `target` set to its target's position (never negative) and
    /// `inline` to its compiled row; any other pair has `target` the complement (`~i`, negative)
    /// of its first candidate's compiled row `i`, or ``empty`` when no row handles the pair.
    ///
    /// Row 0 of the dense array is no state's: its `target`s are each event's usual target,
    /// the position every inline slot of the event's column has (see `usualTargets`), or
    /// ``noUsualTarget``, which is no slot's target.
    @usableFromInline
    struct Slot: Sendable {
      @usableFromInline var target: Int32
      @usableFromInline var inline: Int32

      /// No row handles the pair.
      @inlinable static var empty: Int32 { .min }
      /// A usual target no slot has: positions are multiples of eight.
      static var noUsualTarget: Int32 { 1 }
    }

    /// `target` codes for rows that do not go to a fixed state.
    @usableFromInline static var stay: Int { -1 }
    @usableFromInline static var ignore: Int { -2 }
    @usableFromInline static var make: Int { -3 }

    let name: String
    let initial: State
    let declaredStates: [StateDeclaration]
    let rows: [Row]
    @usableFromInline let policy: InvalidTransitionPolicy
    let problems: [TableProblem]
    @usableFromInline let layout: StateLayout<State, Effect>
    let eventCases: [Event.Discriminant]
    let eventsAreEnumerable: Bool
    /// Candidate rows of state `i` are `start[i]..<start[i + 1]`: its own rows, then wildcards.
    @usableFromInline let start: [Int]
    @usableFromInline let event: [Event.Discriminant]
    /// The guard of each compiled row, called without reference counting (see ``Predicate``).
    @usableFromInline let condition: UnsafeMutablePointer<Unmanaged<Predicate>?>
    /// The update of each compiled row, called without reference counting (see ``Updater``).
    @usableFromInline let update: UnsafeMutablePointer<Unmanaged<Updater>?>
    /// Set when some effect is made at step time: the whole list, in order.
    @usableFromInline let items: [[EffectItem<Context, Event, Effect>]?]
    /// For a row whose effects are one made effect and nothing else: its closure.
    @usableFromInline let singleMaker: UnsafeMutablePointer<Unmanaged<Maker>?>
    /// For ``make`` rows: the declared target's position, its case, and the maker.
    @usableFromInline let maker: [(Int, State.Discriminant, @Sendable (Context, Event) -> State)?]
    /// State cases for the linear lookup of small tables (faster than hashing).
    @usableFromInline let cases: [State.Discriminant]
    /// Dense dispatch, when every event case has an ordinal (``Discriminated/ordinal(of:)``, or
    /// the tag of a one-byte `CaseIterable` enum). Ordinals below `span` (a power of two, 0 without dense dispatch) have a slot per state.
    @usableFromInline let span: Int
    /// What turns a state's index into its position: with dense dispatch `log2(span)` plus 3,
    /// so a position is the byte offset of the state's row of ``Slot``s; 0 without.
    @usableFromInline let shift: Int
    /// `span` when ordinals are the one-byte tags of a `CaseIterable` enum (checked against
    /// `allCases` when the table is built), 0 when they come from ``Discriminated/ordinal(of:)``:
    /// a tag below it is its column.
    @usableFromInline let tagSpan: Int
    /// How the step handles each (state, event) pair: the slot at byte offset
    /// `position + ordinal * 8`. Row 0 is no state's: it holds each event's usual target (see
    /// `usualTargets`), so states' positions start one row in.
    @usableFromInline let dense: UnsafeMutablePointer<Slot>
    @usableFromInline let denseCount: Int
    @usableFromInline let hot: UnsafeMutablePointer<Hot>
    /// The fixed target state of each compiled row (the initial state where it has none).
    @usableFromInline let targetStates: UnsafeMutablePointer<State>
    /// Exit + row + entry effects of each compiled row, when all are fixed values.
    @usableFromInline let fixedEffects: UnsafeMutablePointer<Effects<Effect>>
    /// The one fixed effect of each compiled row that has at most one: the inline step builds
    /// its `Effects` from this plain value, with no outlined copy of the enum.
    @usableFromInline let singleEffect: UnsafeMutablePointer<Effect?>
    /// The declared row of each compiled row.
    @usableFromInline let rowOf: UnsafeMutablePointer<Int32>
    @usableFromInline let count: Int

    init(
      name: String, initial: State, declaredStates: [StateDeclaration], rows declared: [Row],
      policy: InvalidTransitionPolicy, problems: [TableProblem], layout: StateLayout<State, Effect>
    ) {
      self.name = name
      self.initial = initial
      self.declaredStates = declaredStates
      self.rows = declared
      self.policy = policy
      self.problems = problems
      self.layout = layout
      self.cases = layout.cases
      let allEvents = allCasesIfEnumerable(Event.Discriminant.self)
      eventsAreEnumerable = allEvents != nil
      var events = allEvents ?? []
      var seenEvents = Set(events)
      for row in declared where seenEvents.insert(row.event).inserted { events.append(row.event) }
      eventCases = events

      var start = [0]
      var event: [Event.Discriminant] = []
      var condition: [Guard<Context, Event>?] = []
      var target: [Int] = []
      var targetState: [State] = []
      var update: [Row.Update?] = []
      var effects: [[Effect]] = []
      var items: [[EffectItem<Context, Event, Effect>]?] = []
      var maker: [(Int, State.Discriminant, @Sendable (Context, Event) -> State)?] = []
      var rowIndex: [Int] = []

      let wildcards = declared.indices.filter { declared[$0].isWildcard }
      var own = [[Int]](repeating: [], count: layout.cases.count)
      for (r, row) in declared.enumerated() {
        for source in uniqued(row.sourceStates) { own[layout.index[source]!].append(r) }
      }
      for s in layout.cases.indices {
        for r in own[s] + wildcards {
          let row = declared[r]
          var before: [Effect] = []
          var after: [Effect] = []
          var made: (Int, State.Discriminant, @Sendable (Context, Event) -> State)?
          switch row.target {
          case .state(let state):
            let t = layout.index[state.discriminant]!
            target.append(t)
            targetState.append(state)
            (before, after) = (layout.exit[s], layout.entry[t])
          case .make(let discriminant, _, let make):
            let t = layout.index[discriminant]!
            target.append(Self.make)
            targetState.append(initial)
            made = (t, discriminant, make)
            (before, after) = (layout.exit[s], layout.entry[t])
          case .stay:
            target.append(Self.stay)
            targetState.append(initial)
          case .ignore:
            target.append(Self.ignore)
            targetState.append(initial)
          }
          let fixed = row.effects.compactMap(\.fixedValue)
          let allFixed = fixed.count == row.effects.count
          event.append(row.event)
          condition.append(row.guardCondition)
          update.append(row.update)
          effects.append(allFixed ? before + fixed + after : [])
          items.append(allFixed ? nil : before.map { .value($0) } + row.effects + after.map { .value($0) })
          maker.append(made)
          rowIndex.append(r)
        }
        start.append(event.count)
      }
      self.start = start
      self.event = event
      // A plain loop: passing the closures through generic `map` would wrap each in layers of
      // reabstraction thunks, all of them called on every guarded step.
      let guards = UnsafeMutablePointer<Unmanaged<Predicate>?>.allocate(capacity: Swift.max(condition.count, 1))
      for (i, row) in condition.enumerated() {
        (guards + i).initialize(to: row.map { .passRetained($0.box) })
      }
      self.condition = guards
      // (Plain loops, as for the guards above: through generic `map` each closure would be
      // wrapped in reabstraction thunks, called on every step.)
      let updates = UnsafeMutablePointer<Unmanaged<Updater>?>.allocate(capacity: Swift.max(update.count, 1))
      for (i, row) in update.enumerated() {
        (updates + i).initialize(to: row.map { .passRetained(Updater($0)) })
      }
      self.update = updates
      self.items = items
      let makers = UnsafeMutablePointer<Unmanaged<Maker>?>.allocate(capacity: Swift.max(items.count, 1))
      for (i, row) in items.enumerated() {
        var maker: Unmanaged<Maker>?
        if let row, row.count == 1, let make = row[0].maker { maker = .passRetained(Maker(make)) }
        (makers + i).initialize(to: maker)
      }
      self.singleMaker = makers
      let (span, fromTag, first, next) = Self.denseDispatch(start: start, event: event)
      let shift = span > 0 ? span.trailingZeroBitCount + 3 : 0
      assert(span == 0 || MemoryLayout<Slot>.stride == 1 << 3)
      // Targets are positions from here on: the byte offset of a state's dense row (one row in:
      // row 0 holds the usual targets), or the state's index without dense dispatch.
      let position = { Self.position(ofIndex: $0, span: span, shift: shift) }
      self.maker = maker.map { $0.map { (t, discriminant, make) in (position(t), discriminant, make) } }
      self.tagSpan = fromTag ? span : 0
      let hot = event.indices.map { i in
        var flags: UInt8 = 0
        if condition[i] != nil { flags |= Self.hasGuard }
        if update[i] != nil { flags |= Self.hasUpdate }
        if items[i] != nil { flags |= Self.hasMadeEffects }
        if effects[i].count > 1 { flags |= Self.hasManyEffects }
        return Hot(
          target: Int32(target[i] >= 0 ? position(target[i]) : target[i]), next: next.isEmpty ? -1 : next[i],
          compiled: Int32(i), flags: flags)
      }
      self.span = span
      self.shift = shift
      self.rowOf = .copy(rowIndex.map { Int32($0) })
      let slots = first.map { i in
        guard i >= 0 else { return Slot(target: Slot.empty, inline: -1) }
        let row = hot[Int(i)]
        return row.flags == 0 && row.target >= 0 ? Slot(target: row.target, inline: i) : Slot(target: ~i, inline: -1)
      }
      let dense = span > 0 ? Self.usualTargets(slots, span: span) + slots : []
      self.denseCount = dense.count
      self.dense = .copy(dense)
      self.count = event.count
      self.hot = .copy(hot)
      self.targetStates = .copy(targetState)
      self.fixedEffects = .copy(effects.map(Effects.init))
      self.singleEffect = .copy(effects.map { $0.count == 1 ? $0[0] : nil })
    }

    deinit {
      dense.deinitialize(count: denseCount).deallocate()
      hot.deinitialize(count: count).deallocate()
      rowOf.deinitialize(count: count).deallocate()
      for i in 0..<count { condition[i]?.release() }
      condition.deinitialize(count: count).deallocate()
      for i in 0..<count { update[i]?.release() }
      update.deinitialize(count: count).deallocate()
      for i in 0..<count { singleMaker[i]?.release() }
      singleMaker.deinitialize(count: count).deallocate()
      targetStates.deinitialize(count: count).deallocate()
      fixedEffects.deinitialize(count: count).deallocate()
      singleEffect.deinitialize(count: count).deallocate()
    }

    /// Builds the dense dispatch arrays, or none (span 0) when some event case has no ordinal
    /// or the ordinals are too sparse to be worth an array.
    private static func denseDispatch(
      start: [Int], event: [Event.Discriminant]
    ) -> (span: Int, fromTag: Bool, first: [Int32], next: [Int32]) {
      let none = (span: 0, fromTag: false, first: [Int32](), next: [Int32]())
      var ordinals: [Int] = []
      var fromTag = false
      if event.allSatisfy({ Event.ordinal(of: $0) != nil }) {
        ordinals = event.map { Event.ordinal(of: $0)! }
      } else if let tags = oneByteTags() {
        fromTag = true
        _ = tags
        ordinals = event.map { Int(unsafeBitCast($0, to: UInt8.self)) }
      } else {
        return none
      }
      guard ordinals.allSatisfy({ $0 >= 0 && $0 < 4096 }) else { return none }
      var span = 1
      while span <= (ordinals.max() ?? 0) { span <<= 1 }
      let states = start.count - 1
      guard states * span <= 1 << 20, event.count < Int(Int32.max) else { return none }
      var dense = [Int32](repeating: -1, count: states * span)
      var next = [Int32](repeating: -1, count: event.count)
      for s in 0..<states {
        var last = [Int: Int](minimumCapacity: 8)
        for i in start[s]..<start[s + 1] {
          let slot = s * span + ordinals[i]
          if let previous = last[slot] { next[previous] = Int32(i) } else { dense[slot] = Int32(i) }
          last[slot] = i
        }
      }
      return (span, fromTag, dense, next)
    }

    /// The position of the state with index `index`: the byte offset of its dense row (one row
    /// in: row 0 holds the usual targets), or the index itself without dense dispatch.
    @inlinable
    static func position(ofIndex index: Int, span: Int, shift: Int) -> Int {
      span > 0 ? (index &+ 1) &<< shift : index
    }

    /// Row 0 of the dense array: for each event, the one target position shared by every
    /// inline slot of its column, or ``Slot/noUsualTarget`` when the event leads to different
    /// states from different states (or is never applied inline).
    private static func usualTargets(_ slots: [Slot], span: Int) -> [Slot] {
      (0..<span).map { ordinal in Slot(target: usualTarget(slots, column: ordinal, span: span), inline: -1) }
    }

    private static func usualTarget(_ slots: [Slot], column: Int, span: Int) -> Int32 {
      var usual: Int32?
      for s in stride(from: column, to: slots.count, by: span) where slots[s].target >= 0 {
        if let usual, usual != slots[s].target { return Slot.noUsualTarget }
        usual = slots[s].target
      }
      return usual ?? Slot.noUsualTarget
    }

    /// When the event discriminant is a one-byte `CaseIterable` type whose bytes tell its cases
    /// apart exactly (a plain enum), the byte of each case; otherwise `nil`.
    private static func oneByteTags() -> [Event.Discriminant]? {
      guard MemoryLayout<Event.Discriminant>.size == 1,
        let all = allCasesIfEnumerable(Event.Discriminant.self), !all.isEmpty
      else { return nil }
      var byTag = [Event.Discriminant?](repeating: nil, count: 256)
      for value in all {
        let tag = Int(unsafeBitCast(value, to: UInt8.self))
        if let other = byTag[tag], other != value { return nil }
        byTag[tag] = value
      }
      // Equal cases must share a byte, or the dense array would miss rows.
      for a in all { for b in all where a == b && unsafeBitCast(a, to: UInt8.self) != unsafeBitCast(b, to: UInt8.self) { return nil } }
      return all
    }
  }
}

extension UnsafeMutablePointer {
  /// A new buffer holding a copy of `values` (at least one slot, so it is never empty).
  static func copy(_ values: [Pointee]) -> UnsafeMutablePointer {
    let buffer = UnsafeMutablePointer.allocate(capacity: Swift.max(values.count, 1))
    buffer.initialize(from: values, count: values.count)
    return buffer
  }
}
