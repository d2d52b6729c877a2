/// How a reader turns a document's datamodel content into a chart's content: each block into
/// one action, each `cond` into a guard, a state's entry and exit into what `In()` and late
/// binding need, and the document's start into its early binding and global scripts.
struct SCXMLScriptingHooks<ID: Hashable & Sendable, Event: Sendable, Context, Effect: Sendable>: Sendable {
  /// A block of content (an `<onentry>`, an `<onexit>`, a transition's).
  let block: @Sendable ([SCXMLContent]) -> ChartAction<Event, Context, Effect>
  /// A `cond`, written at a place.
  let condition: @Sendable (String, SCXMLPlace) -> ChartGuard<ID, Event, Context>
  /// First on entering the state `id`: it is active, and its late-bound data is declared.
  let entered: @Sendable (_ id: String, _ lateData: [SCXMLData]) -> ChartAction<Event, Context, Effect>
  /// Last on exiting the state `id`.
  let exited: @Sendable (_ id: String) -> ChartAction<Event, Context, Effect>
  /// The document's start: its data (all of it, or the root's only when binding is late), then
  /// its global scripts.
  let start: @Sendable (_ data: [SCXMLData], _ scripts: [String]) -> ChartAction<Event, Context, Effect>
  /// What makes each session's datamodel.
  var datamodel: SCXMLDatamodelMaker? = nil
}

extension SCXMLBindings where ID == String, Event == SCXMLEvent, Context == SCXMLSession {
  /// The bindings of a document whose content ``SCXMLSession`` runs, on a datamodel `make`
  /// makes for each session when its content first runs.
  static func scripted(datamodel make: @escaping SCXMLDatamodelMaker) -> SCXMLBindings {
    var bindings = SCXMLBindings(
      state: { $0 }, event: { SCXMLEvent($0, type: .internal) }, effect: { _ in nil }, guards: [:], actions: [:], bindsNames: false)
    bindings.scripting = SCXMLScriptingHooks(
      block: { content in
        .update("(content)") { session, event in
          session.attach(make)
          session.run(content, event: event)
        }
      },
      condition: { expression, place in
        ChartGuard(expression) { session, event in
          session.attach(make)
          return session.condition(expression, at: place, event: event)
        }
      },
      entered: { id, data in
        .update("(enter \(id))") { session, _ in
          session.attach(make)
          session.setActive(id, true)
          if !data.isEmpty { session.bind(data, of: id) }
        }
      },
      exited: { id in
        .update("(exit \(id))") { session, _ in
          session.attach(make)
          session.setActive(id, false)
        }
      },
      start: { data, scripts in
        .update("(start)") { session, _ in
          session.attach(make)
          session.declare(data)
          for script in scripts { session.run([.script(script)], event: nil) }
        }
      }, datamodel: make)
    return bindings
  }
}
