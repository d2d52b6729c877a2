/// A chart's invocations (``ChartInvoke``, SCXML's `<invoke>`) as child machines, in a chart
/// whose effects are ``Command``s: each is the last entry content of its state, a
/// ``Command/invoke(_:id:scope:)`` of a ``ChildMachine`` running the invoked chart, state-scoped,
/// with the invocation's id. Stores, systems, logs and replays run and record it as any child:
///
/// - it starts when the macrostep that entered its state has ended (a store starts a step's
///   effects then, in order: the states' in document order; an invocation after the step's
///   messages, which went out during the macrostep), and not at all when that macrostep exited
///   the state again; it is cancelled when the state is exited;
/// - it starts with its invoker's context as it is then (no datamodel gives it anything of
///   its invoker's; a Swift context bound by name is the invoker's to share), and its work is
///   performed by its invoker's store's handler (of the same types: an invoked document is read
///   with its invoker's bindings), the events that work sends going to the invoked chart;
/// - a message to `#_<id>` reaches it, and its messages to `#_parent` reach its invoker in
///   order, each as its step is reported, before the `done.invoke.<id>` it sends when it halts
///   (the event the invocation's bindings name so; for `String` events, that name).
///
/// A state of a chart whose invocations forward (`autoforward`) copies every external event its
/// invoker takes to them (``ChartMachine/forwardingRun(_:ordinal:)``); a message that reaches no
/// machine raises `error.communication` in its sender (``StoreEngine/communicationError``).
/// A chart whose content a datamodel runs starts each on a session of its own, as
/// ``SCXMLSession/invocation(_:script:id:)`` says; its `<finalize>` runs as the chart takes an
/// event the invocation sent (``ChartMachine/finalize(_:)``).
protocol ChartInvocationCommand {
  /// The entry content that starts `invoke` as the child `id`, in a chart of `E` events over a
  /// `C` context whose effects are `Effect`s; `nil` when `Effect` is not this type, of `E`
  /// events.
  static func invocation<ID, E, C, Effect>(_ invoke: ChartInvoke<ID, E, C, Effect>, id: String) -> ChartAction<E, C, Effect>?
  /// The same for a chart whose content a datamodel runs (an `ECMAScriptChart`'s, see
  /// ``SCXMLSession/invocation(_:script:id:)``); `nil` for a chart of other types.
  static func scriptedInvocation<ID, E, C, Effect>(_ invoke: ChartInvoke<ID, E, C, Effect>, id: String) -> ChartAction<E, C, Effect>?
}

extension Command: ChartInvocationCommand {
  static func invocation<ID, E, C, Effect>(_ invoke: ChartInvoke<ID, E, C, Effect>, id: String) -> ChartAction<E, C, Effect>? {
    guard E.self == Event.self, Effect.self == Self.self else { return nil }
    // (A store's context is `Sendable`, which no cast can check: `Sendable` marks types for the
    // compiler alone, and a chart of another context never runs in a store. The metatype is
    // taken as a `Sendable` one as it is: both are the type's metadata alone, as `Sendable`
    // has no witness table.)
    let sendable = unsafeBitCast(C.self as Any.Type, to: (any Sendable.Type).self)
    let done = invoke.named("done.invoke.\(id)")
    func typed<S: Sendable>(_: S.Type) -> ChartAction<E, C, Effect>? {
      // (The same types, spelled as this command's: `E` is `Event`, `C` is `S`.)
      guard let chart = invoke.chart as? Chart<ID, Event, S, Self>, let doneEvent = done as? Event? else { return nil }
      return .make(Self.invocationName(id)) { context, _ in
        guard let context = context as? S else { return nil }
        let child = ChildMachine<Event>(invoked: chart, context: context, onDone: { _ in doneEvent })
        return Self.invoke(child, id: EffectID(id), scope: .state) as? Effect
      }
    }
    return typed(sendable)
  }
}

extension Command {
  /// The name of the entry content that starts the invocation `id` (by which a restore finds
  /// it again, see ``ChartEngine/invokedChild(_:owner:)``).
  static func invocationName(_ id: String) -> String { "invoke \(id)" }
}

extension ChartTables {
  /// Per state, the entry content that starts its invocations (see ``ChartInvocationCommand``),
  /// and why a store cannot run them, when it cannot (`nil`: it can, or there are none).
  static func invocations(
    _ builder: ChartBuilder<ID, Event, Context, Effect>, scripted: Bool
  ) -> Invocations {
    var made = Invocations(entries: builder.invokes.map { _ in [] })
    guard let first = builder.invokes.lazy.flatMap({ $0 }).first else { return made }
    let commands = Effect.self as? any ChartInvocationCommand.Type
    if commands == nil { made.refusal = "its effects are not Commands, which a store runs" }
    for s in builder.invokes.indices {
      let label = builder.ids[s].map { "\($0)" } ?? "(chart)"
      for (n, invoke) in builder.invokes[s].enumerated() {
        let id = invoke.invocationID(inState: label, at: n)
        // (Whoever runs a datamodel's invocations, a store or `fsm run`, the chart finalizes the
        // events they send.)
        if let script = invoke.script, !script.finalize.isEmpty { made.finalizers.append(Finalizer(state: s, id: id, script: script)) }
        guard let commands, made.refusal == nil else { continue }
        guard let start = scripted ? commands.scriptedInvocation(invoke, id: id) : commands.invocation(invoke, id: id) else {
          made.refusal =
            scripted
            ? "its effects are not the Commands an ECMAScriptChart's are" : "its effects are Commands of events of another type"
          continue
        }
        made.entries[s].append(start)
        if invoke.autoforward { made.forwards.append(Forward(state: s, target: "#_\(id)")) }
      }
    }
    guard made.refusal == nil else { return made }
    made.communicationError = first.named("error.communication")
    return made
  }

  /// What ``invocations(_:scripted:)`` makes of a chart's invocations.
  struct Invocations {
    /// Per state, the entry content that starts its invocations.
    var entries: [[Action]]
    /// Why a store cannot run them, when it cannot.
    var refusal: String?
    /// The invocations that take a copy of every external event (`autoforward`).
    var forwards: [Forward] = []
    /// The event `error.communication`, as the invocations name it.
    var communicationError: Event?
    /// The invocations with a `<finalize>`.
    var finalizers: [Finalizer] = []
  }
}

extension ChartInvoke {
  /// The invoker's event called `name`: as the invocation's bindings name it, or, for `String`
  /// events, the name itself.
  func named(_ name: String) -> Event? { eventNamed?(name) ?? ((name as Any) as? Event) }
}
