/// What the names in an SCXML document stand for in Swift, so a document can be read into a
/// typed chart with your own states, events, context and effects.
///
/// SCXML without a datamodel cannot hold Swift code. The document names it instead, and the
/// bindings give each name its Swift value:
///
/// | in the document | bound by |
/// |---|---|
/// | a state id, a target, `In('id')` | ``state`` |
/// | `<raise event>`, `<send event>` | ``event`` |
/// | `<log expr="'text'"/>` | ``effect`` |
/// | `cond="name"` or `fsm:cond="name"` | a ``ChartGuard`` named `name` in ``guards`` |
/// | `<fsm:update name="name"/>`, `<log fsm:make="name"/>` | an update or make named `name` in ``actions`` |
///
/// (`fsm` is any prefix bound to ``namespace``.) ``Chart/scxml()`` writes a chart's named
/// guards, updates and makes that way, and ``Chart/scxmlBindings`` gives back the bindings of a
/// chart, so a chart can be edited as SCXML and read back with its Swift code:
///
/// ```swift
/// let edited = try Chart(scxml: Data(try phoneLogin.scxml().utf8), file: "phone-login.scxml", bindings: phoneLogin.scxmlBindings)
/// ```
///
/// Every name a document uses must be bound: a missing one is an ``SCXMLError`` of kind
/// ``SCXMLError/Kind/unbound`` naming its line.
public struct SCXMLBindings<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable>: Sendable {
  /// The namespace of the document's Swift names: `fsm:cond`, `<fsm:update>`, `fsm:make`.
  public static var namespace: String { "urn:swift-state-machine:scxml" }

  /// The state a document id stands for; `nil`: none.
  public var state: @Sendable (String) -> ID?
  /// The event a `<raise>` or `<send>` names; `nil`: none.
  public var event: @Sendable (String) -> Event?
  /// The effect a `<log>` writes (`label: text` when it has a label); `nil`: none.
  public var effect: @Sendable (String) -> Effect?
  /// Guards by name: a `cond` (other than `In()`) is looked up here.
  public var guards: [String: ChartGuard<ID, Event, Context>]
  /// Updates and makes by name.
  public var actions: [String: ChartAction<Event, Context, Effect>]
  /// Whether names are looked up here at all: the plain document reader (`String` everything)
  /// reports them as needing a datamodel instead.
  let bindsNames: Bool
  /// How a document's datamodel content becomes the chart's (`nil`: a document may not need a
  /// datamodel).
  var scripting: SCXMLScriptingHooks<ID, Event, Context, Effect>? = nil

  /// Bindings from functions for states, events and effects, and named guards and actions
  /// (updates and makes; an unnamed update cannot be bound).
  ///
  /// ```swift
  /// let bindings = SCXMLBindings<Door, Input, Lock, String>(
  ///     state: Door.init(rawValue:), guards: [ChartGuard("code is right") { lock, _ in lock.code == 1234 }])
  /// ```
  public init(
    state: @escaping @Sendable (String) -> ID?, event: @escaping @Sendable (String) -> Event? = { _ in nil },
    effect: @escaping @Sendable (String) -> Effect? = { _ in nil }, guards: [ChartGuard<ID, Event, Context>] = [],
    actions: [ChartAction<Event, Context, Effect>] = []
  ) {
    (self.state, self.event, self.effect) = (state, event, effect)
    self.guards = Dictionary(guards.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    self.actions = Dictionary(actions.compactMap { action in action.bindingName.map { ($0, action) } }, uniquingKeysWith: { first, _ in first })
    bindsNames = true
  }

  init(
    state: @escaping @Sendable (String) -> ID?, event: @escaping @Sendable (String) -> Event?,
    effect: @escaping @Sendable (String) -> Effect?, guards: [String: ChartGuard<ID, Event, Context>],
    actions: [String: ChartAction<Event, Context, Effect>], bindsNames: Bool
  ) {
    (self.state, self.event, self.effect, self.guards, self.actions, self.bindsNames) = (state, event, effect, guards, actions, bindsNames)
  }
}

extension SCXMLBindings where ID == String, Event == String, Context == NoContext, Effect == String {
  /// The plain reader's: every name is itself, and anything needing code needs a datamodel.
  static var document: SCXMLBindings {
    SCXMLBindings(state: { $0 }, event: { $0 }, effect: { $0 }, guards: [:], actions: [:], bindsNames: false)
  }
}

extension ChartAction {
  /// The name an update or a make is bound by; `nil` for anything else.
  var bindingName: String? {
    switch self {
    case .update(let name, _): name
    case .make(let name, _): name
    default: nil
    }
  }
}

extension Chart {
  /// The bindings that read this chart's own SCXML export (``scxml()``) back into a chart that
  /// behaves as this one: states by `"\(id)"`, events by name, effects by `"\(effect)"`, and
  /// its named guards, updates and makes.
  ///
  /// A name stands for one piece of code: when two different guards (or updates, or makes)
  /// share a name, only one of them is bound, so give different code different names.
  public var scxmlBindings: SCXMLBindings<ID, Event, Context, Effect> {
    var states: [String: ID] = [:]
    for id in stateIDs where states["\(id)"] == nil { states["\(id)"] = id }
    var events: [String: Event] = [:]
    var effects: [String: Effect] = [:]
    var bound: [String: ChartGuard<ID, Event, Context>] = [:]
    var named: [String: Action] = [:]
    let places = onEntry.indices.map { (onEntry[$0], ContentPlace.entry($0)) } + onExit.indices.map { (onExit[$0], ContentPlace.exit($0)) }
      + actions.indices.map { (actions[$0], ContentPlace.transition($0)) }
    for (list, place) in places {
      for (position, action) in list.enumerated() {
        switch action {
        case .effect(let effect): if effects["\(effect)"] == nil { effects["\(effect)"] = effect }
        case .raise(let event), .send(let event, _, _), .message(let event, _): if events[eventName(event)] == nil { events[eventName(event)] = event }
        case .update(let name?, _), .make(let name, _): if named[name] == nil { named[name] = action }
        case .update(nil, _): named[unnamedUpdateName(place, position)] = action
        default: break
        }
      }
    }
    for case let condition? in guards where bound[condition.name] == nil {
      if case .predicate = condition.condition { bound[condition.name] = condition }
    }
    let (s, e, f) = (states, events, effects)
    return SCXMLBindings(
      state: { s[$0] }, event: { e[$0] }, effect: { f[$0] }, guards: bound, actions: named, bindsNames: true)
  }
}
