extension MachineSystem: ExplorableDefinition where Root: ExplorableDefinition, Root.Configuration: Hashable {
  /// Coverage names the root's states.
  public typealias StateName = Root.StateName
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
    @usableFromInline let children: [String]

    @inlinable
    init(_ machine: SystemMachine<Root>) {
      let places = machine.root?.childPlaces ?? [:]
      root = machine.configuration.root
      children = places.keys.sorted().flatMap { [$0, places[$0]!.configuration, places[$0]!.context] }
    }
  }

  @inlinable
  init(_ machine: SystemMachine<Root>, key: Key) { (self.key, self.machine) = (key, machine) }

  public static func == (a: Self, b: Self) -> Bool { a.key == b.key }
  public func hash(into hasher: inout Hasher) { hasher.combine(key) }
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
  @usableFromInline var fresh: [Int] = []

  public init(_ definition: MachineSystem<Root>, context: Root.Context) {
    self.definition = definition
    machine = SystemMachine(definition, context: context)
    covered = definition._coverageStates.map { !$0.counts }
  }

  public mutating func start() throws(SystemRunError) {
    try machine.begin()
    key = _SystemPlace.Key(machine)
    noteStates()
  }

  /// Notes the root's states active now that were never entered before.
  @usableFromInline
  mutating func noteStates() {
    let states = definition._coverageStates
    let configuration = machine.configuration
    for (i, state) in states.enumerated() where !covered[i] && definition._isIn(state.name, configuration) {
      covered[i] = true
      fresh.append(i)
    }
  }

  public var place: _SystemPlace<Root> { _SystemPlace(machine, key: currentKey) }

  /// The key of where the machine is.
  @usableFromInline var currentKey: _SystemPlace<Root>.Key { key ?? _SystemPlace.Key(machine) }
  public var context: Root.Context { machine.context }
  public var configuration: SystemConfiguration<Root.Configuration> { machine.configuration }
  /// A halted root chart ignores every event: explored as any other place.
  public var isHalted: Bool { false }
  public func ordinal(of event: SystemEvent<Root.Event>) -> Int { -1 }
  public func isUnhandled(ordinal: Int, at place: _SystemPlace<Root>) -> Bool { false }

  public mutating func `return`(to place: _SystemPlace<Root>, context: Root.Context) { (machine, key) = (place.machine, place.key) }

  public mutating func advance(_ event: SystemEvent<Root.Event>, ordinal: Int) throws(SystemRunError) -> MachineResponse {
    key = nil
    let response = try machine.step(event)
    key = _SystemPlace.Key(machine)
    if response.isHandled { noteStates() }
    return response
  }

  public func placeHash(contextHash: Int) -> Int {
    var hasher = Hasher()
    hasher.combine(currentKey)
    hasher.combine(contextHash)
    return hasher.finalize()
  }

  public func isAt(_ place: _SystemPlace<Root>) -> Bool { currentKey == place.key }

  public var coverageGrew: Bool { !fresh.isEmpty }

  public mutating func keepCoverage() -> [Int] {
    defer { fresh = [] }
    return fresh
  }

  public mutating func dropCoverage() {
    for i in fresh { covered[i] = false }
    fresh = []
  }

  public var coveredTransitions: [Int] { [] }
}
