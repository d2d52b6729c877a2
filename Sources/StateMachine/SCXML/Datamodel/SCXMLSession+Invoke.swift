import Foundation

/// What a session does for its `<invoke>`s (SCXML §6.4 with a datamodel): evaluates what each
/// asks of it when it starts, and runs its `<finalize>` on each event it sends back.
extension SCXMLSession {
  /// The invocation `id`'s id goes to its `idlocation`, if it has one (one that cannot be
  /// assigned raises `error.execution`). The one change an invocation makes to its invoker's
  /// data: a store makes it as the invoking state is entered, in the step it logs, and leaves
  /// the rest to the invocation's start.
  package func assignID(of script: SCXMLInvokeScript, id: String) {
    guard let location = script.idlocation else { return }
    if let make = script.datamodel { attach(make) }
    locked {
      do { try model.assign(location, json: SCXMLValueText.quoted(id)) } catch { failed(error) }
    }
  }

  /// What an invocation gives the chart it invokes, evaluated now, changing nothing of this
  /// session's data: the values its namelist and params give the invoked chart's data (one
  /// that cannot be evaluated is left out, and raises `error.execution`), and a chart named at
  /// run time (`srcexpr`, `<content expr>`), read by `read` (its data, the file it names, and
  /// the datamodel of this session). `nil`: that chart cannot be read (`error.execution`).
  package func evaluating<Invoked>(
    _ script: SCXMLInvokeScript, read: (Data, String, @escaping SCXMLDatamodelMaker) throws(SCXMLError) -> Invoked
  ) -> (values: [String: String], chart: Invoked?)? {
    if let make = script.datamodel { attach(make) }
    return locked {
      var values: [String: String] = [:]
      do {
        for name in script.namelist { values[name] = try model.evaluate(name) ?? "null" }
        for (name, expression) in script.params { values[name] = try model.evaluate(expression) ?? "null" }
      } catch {
        failed(error)
      }
      do {
        guard let make, script.srcexpr != nil || script.contentExpr != nil else { return (values, nil) }
        if let expression = script.srcexpr {
          let src = try model.text(of: expression)
          let written = src.hasPrefix("file:") ? String(src.dropFirst("file:".count)) : src
          let path = written.hasPrefix("/") ? written : URL(fileURLWithPath: script.base).deletingLastPathComponent().appendingPathComponent(written).path
          return (values, try read(Data(SCXMLDocument.contents(of: path)), path, make))
        }
        if let expression = script.contentExpr {
          return (values, try read(Data(try model.text(of: expression).utf8), script.base, make))
        }
      } catch {
        failed(SCXMLContentError(message: "the invoked document: \(error)"))
        return nil
      }
      return (values, nil)
    }
  }

  /// An invocation `id` starts, as `fsm run` starts it: its id goes to its `idlocation`
  /// (``assignID(of:id:)``), and what it gives the invoked chart is evaluated
  /// (``evaluating(_:read:)``). `nil`: the chart it names cannot be read.
  package func invoking(_ script: SCXMLInvokeScript, id: String) -> (values: [String: String], chart: SCXMLDocument.ScriptedChart?)? {
    assignID(of: script, id: id)
    return evaluating(script, read: SCXMLDocument.parseScripted)
  }

  /// The events the evaluations since the machine last took this session's outputs raised
  /// (`error.execution`), taken out of them: what an invocation's start raised, outside any
  /// macrostep, for its invoker to take now, not with the content its next event runs.
  package func takeRaised() -> [SCXMLEvent] {
    locked {
      var raised: [SCXMLEvent] = []
      outputs.removeAll { output in
        switch output {
        case .raise(let event): raised.append(event)
        case .error(let name): raised.append(SCXMLEvent(name, type: .platform))
        default: return false
        }
        return true
      }
      return raised
    }
  }

  /// An event from an invoked chart arrives: the invocation's `<finalize>` runs on it.
  package func finalize(_ script: SCXMLInvokeScript, event: SCXMLEvent) {
    guard !script.finalize.isEmpty else { return }
    run(script.finalize, event: event)
  }
}

extension SCXMLSession {
  /// The entry content that starts the invocation `id` of `chart` in a store (see
  /// ``ChartInvocationCommand``), as the last entry content of its state: a child machine made
  /// as it starts, at the end of the macrostep (``ChildMachine/init(named:madeAtStart:)``). Its
  /// id goes to its `idlocation` now, in the step that entered the state; as it starts, what
  /// it gives the invoked chart is evaluated (``evaluating(_:read:)``), and the chart it names
  /// (or `chart`) runs on a session of its own, its data given the values evaluated. What the
  /// evaluation raises (`error.execution`: a param that cannot be evaluated, a document that
  /// cannot be read) goes to the invoker as it starts, ahead of what the invoked chart says.
  /// Each event it sends to `#_parent` carries `id` as its `invokeid`, and so does the
  /// `done.invoke.<id>` it sends when it halts, with the data its last final state's
  /// `<donedata>` gave.
  static func invocation(
    _ chart: SCXMLDocument.StoreScriptedChart, script: SCXMLInvokeScript, id: String
  ) -> ChartAction<SCXMLEvent, SCXMLSession, Command<SCXMLEvent, String>> {
    .make(Command<SCXMLEvent, String>.invocationName(id)) { session, _ in
      session.assignID(of: script, id: id)
      let child = ChildMachine<SCXMLEvent>(named: chart.name) {
        let started = session.evaluating(script, read: SCXMLDocument.readStoreScripted)
        // (What the evaluation raised goes to the invoker now: left in the session, it waited
        // for the invoker's next event.)
        let raised = session.takeRaised()
        guard let started else { return (nil, raised) }
        let invoked = started.chart ?? chart
        let context = SCXMLSession(sessionID: "\(session.sessionID).\(id)", name: invoked.name, values: started.values)
        let made = ChildMachine<SCXMLEvent>(
          invoked: invoked, context: context,
          onDone: { session in SCXMLEvent("done.invoke.\(id)", type: .platform, invokeid: id, data: session.takeDoneData()) },
          stamp: { event in
            var event = event
            event.invokeid = id
            return event
          })
        return (made, raised)
      }
      return .invoke(child, id: EffectID(id), scope: .state)
    }
  }
}

extension Command {
  static func scriptedInvocation<ID, E, C, Effect>(_ invoke: ChartInvoke<ID, E, C, Effect>, id: String) -> ChartAction<E, C, Effect>? {
    typealias Invoke = ChartInvoke<String, SCXMLEvent, SCXMLSession, Command<SCXMLEvent, String>>
    guard let invoke = invoke as? Invoke, let script = invoke.script else { return nil }
    return SCXMLSession.invocation(invoke.chart, script: script, id: id) as? ChartAction<E, C, Effect>
  }
}
