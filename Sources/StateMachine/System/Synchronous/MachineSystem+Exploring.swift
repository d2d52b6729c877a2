extension MachineSystem: ExplorableDefinition where Root: ExplorableDefinition, Root.Configuration: Hashable {
  public typealias _Explorer = _SystemExplorer<Root>

  /// The root's states: a system's coverage is of the states its root entered.
  public var _coverageStates: [(name: Root.StateName, counts: Bool)] { root._coverageStates }
  /// A system's machines are stepped by their stores' rules, which do not say which transition
  /// they took: transitions are not counted.
  public var _coverageTransitions: [Int] { [] }
  public func _describeTransition(_ t: Int) -> String { root._describeTransition(t) }
  public static var _transitionsNoun: String { "transitions (not counted in a system)" }
  public func _isIn(_ state: Root.StateName, _ configuration: Configuration) -> Bool { root._isIn(state, configuration.root) }
}

/// Where a system is, for an explorer (not API): the root's configuration, each running
/// child's configuration and context as they read, by path; and the system itself, to be put
/// back. Two places are equal when their keys are (the root's context is compared apart).
public struct _SystemPlace<Root: StoreDefinition>: Hashable where Root.Context: Sendable, Root.Configuration: Hashable {
  @usableFromInline let key: Key
  @usableFromInline let machine: SystemMachine<Root>

  /// The root's configuration, and each child's path, configuration and context, in path order.
  @usableFromInline
  struct Key: Hashable {
    @usableFromInline let root: Root.Configuration
    @usableFromInline let children: [PlacedChild]

    @inlinable
    init(_ machine: SystemMachine<Root>) {
      var places = machine.root?.childPlaces ?? []
      if places.count > 1 { places.sort { $0.path < $1.path } }
      root = machine.rootConfiguration
      children = places
    }

    // (Written out, inlinable: the synthesized ones ran unspecialised in the explorer's search,
    // which compares keys on every revisit, looking up their generic types at each call.)
    @inlinable
    static func == (a: Key, b: Key) -> Bool { a.root == b.root && a.children == b.children }

    @inlinable
    func hash(into hasher: inout Hasher) {
      hasher.combine(root)
      hasher.combine(children)
    }
  }

  @inlinable
  init(_ machine: SystemMachine<Root>, key: Key) { (self.key, self.machine) = (key, machine) }

  @inlinable public static func == (a: Self, b: Self) -> Bool { a.key == b.key }
  @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

/// What an explorer steps for a system (not API): a ``SystemMachine``, put back at each place
/// as the value the place kept; coverage is of the root's states.
public struct _SystemExplorer<Root: StoreDefinition & ExplorableDefinition>: _MachineExplorer
where Root.Context: Sendable, Root.Configuration: Hashable {
  public typealias Definition = MachineSystem<Root>

  @usableFromInline var machine: SystemMachine<Root>
  /// Where `machine` is, worked out once per step (the search hashes it, compares it and files
  /// it).
  @usableFromInline var key: _SystemPlace<Root>.Key?
  @usableFromInline let definition: MachineSystem<Root>
  /// The root's states entered so far, by ``ExplorableDefinition/_coverageStates`` number, and
  /// those entered since coverage was last kept.
  @usableFromInline var covered: [Bool]
  /// The root's states, as coverage names them (worked out once: a chart makes the list anew
  /// each time it is asked).
  @usableFromInline let states: [(name: Root.StateName, counts: Bool)]
  @usableFromInline var fresh: [Int] = []

  public init(_ definition: MachineSystem<Root>, context: Root.Context) {
    self.definition = definition
    machine = SystemMachine(definition, context: context)
    states = definition._coverageStates
    covered = states.map { !$0.counts }
  }

  @inlinable public mutating func start() throws(SystemRunError) {
    try machine.begin()
    key = _SystemPlace.Key(machine)
    noteStates()
  }

  /// Notes the root's states active now that were never entered before.
  @inlinable
  mutating func noteStates() {
    // (The root's configuration alone: coverage is of the root's states.)
    let configuration = machine.rootConfiguration
    for (i, state) in states.enumerated() where !covered[i] && definition.root._isIn(state.name, configuration) {
      covered[i] = true
      fresh.append(i)
    }
  }

  @inlinable public var place: _SystemPlace<Root> { _SystemPlace(machine, key: currentKey) }

  /// The key of where the machine is.
  @inlinable var currentKey: _SystemPlace<Root>.Key { key ?? _SystemPlace.Key(machine) }
  @inlinable public var context: Root.Context { machine.context }
  @inlinable public var configuration: SystemConfiguration<Root.Configuration> { machine.configuration }
  /// A halted root chart ignores every event: explored as any other place.
  @inlinable public var isHalted: Bool { false }
  @inlinable public var _undeliveredMessage: String? { machine.undelivered }
  @inlinable public func ordinal(of event: SystemEvent<Root.Event>) -> Int { -1 }
  @inlinable public func isUnhandled(ordinal: Int, at place: _SystemPlace<Root>) -> Bool { false }

  @inlinable public mutating func `return`(to place: _SystemPlace<Root>, context: Root.Context) { (machine, key) = (place.machine, place.key) }

  /// (An input on which every machine's step was one that nothing took, and that left its
  /// machine as it was, is answered as ignored: the system is where it was, and the search
  /// stays there, as it does for a table's event that no row takes, without working out and
  /// looking up where it is.)
  @inlinable public mutating func advance(_ event: SystemEvent<Root.Event>, ordinal: Int) throws(SystemRunError) -> MachineResponse {
    let before = key
    key = nil
    let (response, changed) = try machine.stepNotingChange(event)
    guard changed else {
      key = before
      return response.isHandled ? .ignored : response
    }
    key = _SystemPlace.Key(machine)
    if response.isHandled { noteStates() }
    return response
  }

  @inlinable public func placeHash(contextHash: Int) -> Int {
    var hasher = Hasher()
    hasher.combine(currentKey)
    hasher.combine(contextHash)
    return hasher.finalize()
  }

  @inlinable public func isAt(_ place: _SystemPlace<Root>) -> Bool { currentKey == place.key }

  @inlinable public var coverageGrew: Bool { !fresh.isEmpty }

  @inlinable public mutating func keepCoverage() -> [Int] {
    defer { fresh = [] }
    return fresh
  }

  @inlinable public mutating func dropCoverage() {
    for i in fresh { covered[i] = false }
    fresh = []
  }

  @inlinable public var coveredTransitions: [Int] { [] }
}
