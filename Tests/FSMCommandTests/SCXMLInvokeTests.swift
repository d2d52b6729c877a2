import FSMCommand
import FSMTool
import Foundation
import StateMachine
import Testing

/// `<invoke>` in the null datamodel, as `fsm run` runs it: inline and `src` documents, messages
/// to `#_parent` and `#_<id>`, `done.invoke.<id>`, cancellation on exit, `autoforward`, and the
/// typed errors of what it cannot read.
@Suite("SCXML <invoke>: charts that run charts")
struct SCXMLInvokeTests {
  /// A child that tells its parent it started, finishes on `finish`, and says `tock` to its
  /// parent one second after it started, unless cancelled before.
  static let worker = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="working" name="worker">
      <state id="working">
        <onentry><send target="#_parent" event="started"/><send event="tick" delay="1s"/></onentry>
        <transition event="tick"><send target="#_parent" event="tock"/></transition>
        <transition event="finish" target="done"><log label="worker" expr="'finishing'"/></transition>
        <transition event="ping"><send target="#_parent" event="pong"/></transition>
      </state>
      <final id="done"/>
    </scxml>
    """

  /// A parent invoking `invoke` (an `<invoke …>` element) in `session`, whose `running` also
  /// has the transitions `running`.
  static func parent(_ invoke: String, running extra: String = "") -> String {
    """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="session" name="parent">
      <state id="session" initial="busy">
        \(invoke)
        <state id="busy"><transition event="started" target="running"/></state>
        <state id="running">
          <transition event="go"><send target="#_w" event="finish"/></transition>
          <transition event="nobody"><send target="#_nobody" event="finish"/></transition>
          <transition event="done.invoke.w" target="finished"/>
          <transition event="tock" target="ticked"/>
          <transition event="pong" target="ponged"/>
          <transition event="error.communication" target="unreachable"/>
          \(extra)
        </state>
        <transition event="leave" target="idle"/>
      </state>
      <state id="idle"><transition event="tock" target="ticked"/></state>
      <final id="finished"/><state id="ticked"/><state id="ponged"/><state id="unreachable"/>
    </scxml>
    """
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    /// The parent document; the worker is beside it as `worker.scxml`.
    let document: String
    let events: [String]
    /// The output's lines, in order (each must be there).
    let lines: [String]
    var testDescription: String { label }
  }

  /// A parent whose `go` sends itself `later`, then messages no child: SCXML puts the
  /// `error.communication` on the internal queue, which it takes before the external `later`.
  static let communicationAhead = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
      <state id="s">
        <invoke id="w"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="k"/></scxml></content></invoke>
        <transition event="go" target="t"><send event="later"/><send target="#_nobody" event="x"/></transition>
      </state>
      <state id="t">
        <transition event="error.communication" target="pass"/>
        <transition event="later" target="fail"/>
      </state>
      <final id="pass"/><final id="fail"/>
    </scxml>
    """

  /// A parent whose `both` finishes its worker, then pings it, in one macrostep: both sends go
  /// out while the worker runs, and the finished worker drops the ping, so no
  /// `error.communication` is raised (a store delivers the first at once, and its worker ends
  /// on it before the second).
  static let sentWhileRunning = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
      <state id="s">
        <invoke id="w" src="worker.scxml"/>
        <transition event="both"><send target="#_w" event="finish"/><send target="#_w" event="ping"/></transition>
        <transition event="error.communication" target="lost"/>
      </state>
      <state id="lost"/>
    </scxml>
    """

  /// A parent whose start invokes its worker (which says `started` at its start), then, in the
  /// state it enters, messages no child: the start's `error.communication` is taken first (in
  /// `busy`, which ignores it), then `started`, as a store takes what its start's work says
  /// after that work.
  static let startSaysAfterItsWork = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="session" name="parent">
      <state id="session" initial="busy">
        <invoke id="w" src="worker.scxml"/>
        <state id="busy">
          <onentry><send target="#_nobody" event="x"/></onentry>
          <transition event="started" target="running"/>
        </state>
        <state id="running"><transition event="error.communication" target="unreachable"/></state>
      </state>
      <state id="unreachable"/>
    </scxml>
    """

  /// A parent that tells its worker `ping` as it leaves the worker's state: sent while the
  /// worker runs (its state's `<onexit>` runs before the invocation is cancelled), then dropped
  /// with the cancelled worker, so no `pong` comes back and no `error.communication` is raised.
  static let toldOnExit = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
      <state id="s">
        <invoke id="w" src="worker.scxml"/>
        <onexit><send target="#_w" event="ping"/></onexit>
        <transition event="leave" target="t"/>
      </state>
      <state id="t">
        <transition event="pong" target="ponged"/>
        <transition event="error.communication" target="lost"/>
      </state>
      <state id="ponged"/><state id="lost"/>
    </scxml>
    """

  /// A parent whose `leave` leaves its worker's state `s` for `t`: `transition` is the
  /// transition's content, `entering` `t`'s entry content, `onExit` `s`'s exit content. SCXML
  /// cancels the worker as `s` is exited, after `s`'s exit content and before the transition's:
  /// a message to it after that finds no worker, and raises `error.communication` (`lost`).
  static func toldAfterExit(_ transition: String, entering: String = "", onExit: String = "") -> String {
    """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
      <state id="s">
        <invoke id="w" src="worker.scxml"/>
        <onexit>\(onExit)</onexit>
        <transition event="leave" target="t">\(transition)</transition>
      </state>
      <state id="t">
        <onentry>\(entering)</onentry>
        <transition event="pong" target="ponged"/>
        <transition event="error.communication" target="lost"/>
      </state>
      <state id="ponged"/><state id="lost"/>
    </scxml>
    """
  }

  static let inline = "<invoke id=\"w\" type=\"http://www.w3.org/TR/scxml/\"><content>\(worker)</content></invoke>"
  static let cases: [Case] = [
    Case(label: "an inline child's #_parent message moves its parent; #_<id> finishes it: done.invoke.<id>", document: parent(inline),
         events: ["go"], lines: ["start -> [running]", "go -> [finished] (halted)", "  effect: [w] worker: finishing"]),
    Case(label: "a child read from src, relative to the document", document: parent("<invoke id=\"w\" src=\"worker.scxml\"/>"),
         events: ["go"], lines: ["start -> [running]", "go -> [finished] (halted)"]),
    Case(label: "a child's delayed send fires while its state is active", document: parent(inline), events: ["after 1s"],
         lines: ["start -> [running]", "after 1s -> [ticked]"]),
    Case(label: "leaving the state cancels the child: its delayed send never fires", document: parent(inline), events: ["leave", "after 2s"],
         lines: ["leave -> [idle]", "after 2s -> [idle]"]),
    Case(label: "a message to a child that is not running raises error.communication", document: parent(inline), events: ["nobody"],
         lines: ["nobody -> [unreachable]"]),
    Case(label: "autoforward copies the parent's events to the child",
         document: parent("<invoke id=\"w\" autoforward=\"true\" src=\"worker.scxml\"/>"), events: ["ping"], lines: ["ping -> [ponged]"]),
    Case(label: "without autoforward the child does not hear its parent's events", document: parent(inline), events: ["ping"],
         lines: ["ping -> [running]"]),
    Case(label: "a delayed #_<id> message waits on the clock, then reaches the child",
         document: parent(inline, running: "<transition event=\"later\"><send target=\"#_w\" event=\"finish\" delay=\"500ms\" id=\"bye\"/></transition>"),
         events: ["later", "after 400ms", "after 100ms"],
         lines: ["later -> [running]", "after 400ms -> [running]", "after 100ms -> [finished] (halted)"]),
    Case(label: "a delayed #_<id> message cancelled by its id before it is due never arrives",
         document: parent(
           inline,
           running: "<transition event=\"later\"><send target=\"#_w\" event=\"finish\" delay=\"500ms\" id=\"bye\"/></transition>"
             + "<transition event=\"never\"><cancel sendid=\"bye\"/></transition>"),
         events: ["later", "never", "after 600ms"], lines: ["never -> [running]", "after 600ms -> [running]"]),
    Case(label: "a child's delayed #_parent message reaches its parent when due",
         document: parent(
           "<invoke id=\"w\" type=\"http://www.w3.org/TR/scxml/\"><content><scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">"
             + "<state id=\"k\"><onentry><send target=\"#_parent\" event=\"started\"/><send target=\"#_parent\" event=\"pong\" delay=\"300ms\"/>"
             + "</onentry></state></scxml></content></invoke>"),
         events: ["after 200ms", "after 100ms"], lines: ["after 200ms -> [running]", "after 100ms -> [ponged]"]),
    Case(label: "an invocation without an id is named after its state: #_session.1, done.invoke.session.1",
         document: parent(
           "<invoke src=\"worker.scxml\"/>",
           running: "<transition event=\"go2\"><send target=\"#_session.1\" event=\"finish\"/></transition><transition event=\"done.invoke.session.1\" target=\"finished\"/>"),
         events: ["go2"], lines: ["start -> [running]", "go2 -> [finished] (halted)"]),
    Case(label: "a child's message at its start is taken once the start has run: the parent's answer reaches the child",
         document: """
           <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent"><state id="s">
             <invoke id="w" src="worker.scxml"/>
             <transition event="started"><send target="#_w" event="ping"/></transition>
             <transition event="pong" target="ponged"/>
           </state><final id="ponged"/></scxml>
           """, events: [], lines: ["start -> [ponged] (halted)"]),
    Case(label: "a child done at its start: what its last macrostep sent reaches its parent, in order, before done.invoke.<id>",
         document: """
           <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent"><state id="s" initial="s1">
             <invoke id="k"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="end"><final id="end">
               <onentry><send target="#_parent" event="one"/><send target="#_parent" event="two"/></onentry>
             </final></scxml></content></invoke>
             <state id="s1"><transition event="one" target="s2"/></state>
             <state id="s2"><transition event="two" target="s3"/></state>
             <state id="s3"><transition event="done.invoke.k" target="pass"/></state>
             <transition event="done.invoke.k" target="fail"/>
           </state><final id="pass"/><final id="fail"/></scxml>
           """, events: [], lines: ["start -> [pass] (halted)"]),
    Case(label: "an autoforwarding child that is done takes no more copies: its parent's later events raise no error.communication",
         document: """
           <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
             <state id="s">
               <invoke id="w" autoforward="true"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="k">
                 <state id="k"><transition event="stop" target="end"/></state><final id="end"/>
               </scxml></content></invoke>
               <transition event="error.communication" target="lost"/>
             </state>
             <state id="lost"/>
           </scxml>
           """, events: ["stop", "x", "y"], lines: ["stop -> [s]", "x -> [s]", "y -> [s]"]),
    Case(label: "error.communication is taken before an event the same macrostep sent itself earlier (SCXML's internal queue)",
         document: communicationAhead, events: ["go"], lines: ["go -> [pass] (halted)"]),
    Case(label: "a child that a macrostep's first message finishes drops the macrostep's next: no error.communication",
         document: sentWhileRunning, events: ["both"], lines: ["start -> [s]", "both -> [s]"]),
    Case(label: "what a child says at its start is taken after the start's work, and after what that work raised",
         document: startSaysAfterItsWork, events: [], lines: ["start -> [running]"]),
    Case(label: "a message as the child's state is left is dropped with the child: no error.communication",
         document: toldOnExit, events: ["leave"], lines: ["start -> [s]", "leave -> [t]"]),
    Case(label: "a message in the transition that leaves the child's state goes out after the child is cancelled: error.communication",
         document: toldAfterExit("<send target=\"#_w\" event=\"ping\"/>"), events: ["leave"], lines: ["start -> [s]", "leave -> [lost]"]),
    Case(label: "the same, with an output before the message in the transition",
         document: toldAfterExit("<send event=\"later\"/><send target=\"#_w\" event=\"ping\"/>"), events: ["leave"],
         lines: ["start -> [s]", "leave -> [lost]"]),
    Case(label: "a message in the state the transition enters, after the child's state was left: error.communication",
         document: toldAfterExit("", entering: "<send target=\"#_w\" event=\"ping\"/>"), events: ["leave"], lines: ["start -> [s]", "leave -> [lost]"]),
    Case(label: "a message as the child's state is left, and another after it: only the one after raises error.communication",
         document: toldAfterExit("<send target=\"#_w\" event=\"ping\"/>", onExit: "<send target=\"#_w\" event=\"ping\"/>"), events: ["leave"],
         lines: ["start -> [s]", "leave -> [lost]"]),
    Case(label: "a message in a transition that leaves and enters the child's state again: the old child is gone, the new one not started",
         document: """
           <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
             <state id="s">
               <invoke id="w" src="worker.scxml"/>
               <transition event="again" target="s"><send target="#_w" event="ping"/></transition>
               <transition event="error.communication" target="lost"/>
               <transition event="pong" target="ponged"/>
             </state>
             <state id="lost"/><state id="ponged"/>
           </scxml>
           """, events: ["again"], lines: ["start -> [s]", "again -> [lost]"]),
    Case(label: "a message in the macrostep that enters an invoking state goes out before the invocation starts: error.communication",
         document: """
           <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
             <state id="s" initial="s2">
               <invoke id="w" src="worker.scxml"/>
               <state id="s2">
                 <onentry><send target="#_w" event="ping"/></onentry>
                 <transition event="pong" target="ponged"/>
                 <transition event="error.communication" target="lost"/>
               </state>
             </state>
             <state id="ponged"/><state id="lost"/>
           </scxml>
           """, events: [], lines: ["start -> [lost]"]),
    Case(label: "invocations start in document order, also when a message goes out between them",
         document: """
           <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
             <state id="s" initial="s2">
               <invoke id="a"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="k"><onentry><send target="#_parent" event="one"/></onentry></state></scxml></content></invoke>
               <state id="s2">
                 <onentry><send target="#_nobody" event="x"/></onentry>
                 <invoke id="b"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="k"><onentry><send target="#_parent" event="two"/></onentry></state></scxml></content></invoke>
                 <transition event="one" target="s3"/>
                 <transition event="two" target="fail"/>
               </state>
               <state id="s3"><transition event="two" target="pass"/></state>
             </state>
             <state id="pass"/><state id="fail"/>
           </scxml>
           """, events: [], lines: ["start -> [pass]"]),
    Case(label: "a message to a child that its start ends at once, sent in the same macrostep, raises error.communication",
         document: """
           <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="parent">
             <state id="s" initial="s2">
               <invoke id="k"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="end"><final id="end"/></scxml></content></invoke>
               <state id="s2"><onentry><send target="#_k" event="x"/></onentry></state>
               <transition event="error.communication" target="lost"/>
             </state>
             <state id="lost"/>
           </scxml>
           """, events: [], lines: ["start -> [lost]"]),
  ]

  /// Writes the documents into a new folder; returns the parent's path.
  static func write(_ document: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-invoke-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(worker.utf8).write(to: folder.appendingPathComponent("worker.scxml"))
    let path = folder.appendingPathComponent("parent.scxml")
    try Data(document.utf8).write(to: path)
    return path.path
  }

  /// Removes the folder ``write(_:)`` made for the parent at `path`.
  static func remove(_ path: String) {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
  }

  @Test(arguments: cases)
  func runs(_ c: Case) throws {
    let path = try Self.write(c.document)
    defer { Self.remove(path) }
    let result = PackageFSM.run(["run", path, "--events", c.events.joined(separator: ",")])
    #expect(result.code == 0, "\(result.errorOutput)")
    let lines = result.output.split(separator: "\n").map(String.init)
    var at = 0
    for line in c.lines {
      guard let found = lines[at...].firstIndex(of: line) else {
        Issue.record("missing \(line) in\n\(result.output)")
        return
      }
      at = found + 1
    }
  }

  @Test("a child's halting at its start is done at once; done.invoke.<id> reaches the parent")
  func doneAtStart() throws {
    let finalChild = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" initial=\"end\"><final id=\"end\"/></scxml>"
    let document = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="waiting">
        <state id="waiting">
          <invoke id="w"><content>\(finalChild)</content></invoke>
          <transition event="done.invoke.w" target="done"/>
        </state>
        <state id="done"/>
      </scxml>
      """
    let parent = try Self.write(document)
    defer { Self.remove(parent) }
    let result = PackageFSM.run(["run", parent, "--events", ""])
    #expect(result.output.hasPrefix("start -> [done]"), "\(result.output)\(result.errorOutput)")
  }

  @Test("the export writes the invocations back: the document read again runs the same")
  func exportRoundTrip() throws {
    let path = try Self.write(Self.parent(Self.inline))
    defer { Self.remove(path) }
    let exported = PackageFSM.run(["show", path, "--format", "scxml"])
    #expect(exported.code == 0, "\(exported.errorOutput)")
    #expect(exported.output.contains("<invoke type=\"http://www.w3.org/TR/scxml/\" id=\"w\">"))
    #expect(exported.output.contains("<send event=\"started\" target=\"#_parent\"/>"))
    let again = path + ".again.scxml"
    try Data(exported.output.utf8).write(to: URL(fileURLWithPath: again))
    for events in [["go"], ["leave", "after 2s"], ["after 1s"]] {
      let a = PackageFSM.run(["run", path, "--events", events.joined(separator: ",")])
      let b = PackageFSM.run(["run", again, "--events", events.joined(separator: ",")])
      #expect(a.output == b.output && a.code == 0, "\(a.output)\n---\n\(b.output)")
    }
    // An invocation read from src is written back by its src.
    let bySource = try Self.write(Self.parent("<invoke id=\"w\" src=\"worker.scxml\"/>"))
    defer { Self.remove(bySource) }
    #expect(PackageFSM.run(["show", bySource, "--format", "scxml"]).output.contains("<invoke type=\"http://www.w3.org/TR/scxml/\" id=\"w\" src=\"worker.scxml\"/>"))
  }

  @Test("fsm show names the invocations in the Markdown spec, whose reader refuses them, and draws the children")
  func shows() throws {
    let path = try Self.write(Self.parent(Self.inline))
    defer { Self.remove(path) }
    let markdown = PackageFSM.run(["show", path])
    #expect(markdown.output.contains("- invokes (SCXML only): `worker` in `session`"), "\(markdown.output)")
    let spec = path + ".md"
    try Data(markdown.output.utf8).write(to: URL(fileURLWithPath: spec))
    let read = PackageFSM.run(["show", spec])
    #expect(read.code == 2)
    #expect(read.errorOutput.contains(":3: the chart invokes charts, which a spec cannot hold"), "\(read.errorOutput)")
    #expect(PackageFSM.run(["show", path, "--format", "dot"]).output.contains("    subgraph cluster_child1 {\n        label=\"worker (child machine)\";"))
    #expect(PackageFSM.run(["show", path, "--format", "mermaid"]).output.contains("    note right of session : invokes worker"))
  }

  @Test("a child's messages survive its Markdown spec and its SCXML export")
  func messagesRoundTrip() throws {
    let chart = try SCXMLDocument.parse(Data(Self.worker.utf8), file: "worker.scxml")
    #expect(chart.markdown().contains("| working |  | atomic |  | send started to #_parent, send tick after 1000ms |  |"), "\(chart.markdown())")
    let again = try ChartSpec.parse(chart.markdown(), file: "worker.md")
    #expect(try again.scxml() == chart.scxml())
    var machine = ChartMachine(again, context: NoContext())
    #expect(try machine.start().outputs.contains { if case .message("started", to: "#_parent") = $0 { true } else { false } })
  }

  @Test("a delayed message survives the Markdown spec and the SCXML export: its target, delay and id")
  func delayedMessageRoundTrip() throws {
    let document = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="sender">
        <state id="s"><transition event="go"><send target="#_w" event="finish" delay="500ms" id="bye"/></transition>
          <transition event="stop"><cancel sendid="bye"/></transition></state>
      </scxml>
      """
    let chart = try SCXMLDocument.parse(Data(document.utf8), file: "sender.scxml")
    #expect(chart.markdown().contains("send finish to #_w after 500ms as bye"), "\(chart.markdown())")
    #expect(chart.mermaid().contains("go / send finish to #35;_w after 500 ms"), "\(chart.mermaid())")
    let exported = try chart.scxml()
    #expect(exported.contains("<send event=\"finish\" target=\"#_w\" delay=\"500ms\" id=\"bye\"/>"), "\(exported)")
    #expect(try ChartSpec.parse(chart.markdown(), file: "sender.md").scxml() == exported)
    #expect(try SCXMLDocument.parse(Data(exported.utf8), file: "again.scxml").scxml() == exported)
    var machine = ChartMachine(chart, context: NoContext())
    _ = try machine.start()
    let outputs = try machine.send("go").outputs
    #expect(outputs.count == 1)
    guard case .delayedMessage(MachineMessage("finish", to: "#_w", after: .milliseconds(500), id: "bye"))? = outputs.first else {
      Issue.record("expected a delayed message, got \(outputs)")
      return
    }
  }

  @Test("a parent and child messaging each other forever end with the bound on events per input, not a hang")
  func pingPongIsBounded() throws {
    let document = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="talking">
        <state id="talking">
          <invoke id="echo"><content>
            <scxml initial="e" version="1.0"><state id="e"><transition event="ping"><send target="#_parent" event="pong"/></transition></state></scxml>
          </content></invoke>
          <transition event="go"><send target="#_echo" event="ping"/></transition>
          <transition event="pong"><send target="#_echo" event="ping"/></transition>
        </state>
      </scxml>
      """
    let parent = try Self.write(document)
    defer { Self.remove(parent) }
    let result = PackageFSM.run(["run", parent, "--events", "go", "--max-events", "50"])
    #expect(result.code == 2, "\(result.output)\(result.errorOutput)")
    #expect(result.errorOutput.contains("'go' caused more than 50 events"), "\(result.errorOutput)")
  }

  struct Bad: Sendable, CustomTestStringConvertible {
    let label: String
    let invoke: String
    /// What the error must say.
    let message: String
    var testDescription: String { label }
  }

  static let bad: [Bad] = [
    Bad(label: "another type of process", invoke: "<invoke type=\"http://example.com/ccxml\" src=\"worker.scxml\"/>",
        message: "type 'http://example.com/ccxml'; expected http://www.w3.org/TR/scxml/"),
    Bad(label: "a src that is not there", invoke: "<invoke src=\"missing.scxml\"/>", message: "src 'missing.scxml'"),
    Bad(label: "neither src nor content", invoke: "<invoke id=\"w\"/>", message: "expected either a src attribute or one <content>"),
    Bad(label: "a parameter", invoke: "<invoke src=\"worker.scxml\"><param name=\"x\" expr=\"1\"/></invoke>", message: "<param>: needs a datamodel"),
    Bad(label: "autoforward not a boolean", invoke: "<invoke autoforward=\"yes\" src=\"worker.scxml\"/>", message: "autoforward 'yes'; expected true or false"),
    Bad(
      label: "a document that invokes itself", invoke: "<invoke src=\"parent.scxml\"/>",
      message: "the document invokes itself (parent.scxml → parent.scxml): reading it would never end"),
    Bad(
      label: "a document that invokes itself twice (read at once, not 2^16 times)",
      invoke: "<invoke id=\"a\" src=\"parent.scxml\"/><invoke id=\"b\" src=\"./parent.scxml\"/>", message: "the document invokes itself"),
    Bad(
      label: "two invocations with one id in one state",
      invoke: "<invoke id=\"w\" src=\"worker.scxml\"/><invoke id=\"w\" src=\"worker.scxml\"/>",
      message: "state 'session': invokes 'w', as this state does (line 3), and both can run at once"),
    Bad(
      label: "an id the same as one made as it runs",
      invoke: "<invoke src=\"worker.scxml\"/><invoke id=\"session.1\" src=\"worker.scxml\"/>",
      message: "state 'session': invokes 'session.1', as this state does"),
    Bad(
      label: "invocations nested inline more than 16 deep",
      invoke: String(repeating: "<invoke><content><scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\"><state id=\"s\">", count: 17)
        + String(repeating: "</state></scxml></content></invoke>", count: 17),
      message: "invocations nested more than 16 documents deep"),
  ]

  @Test("a read invokes at most 256 documents by src: documents that each invoke the next twice are refused, not read 2^n times")
  func invokedDocumentsBound() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fsm-invoke-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // d0 invokes d1 twice, d1 invokes d2 twice, …, d9 invokes nothing: 2 + 4 + … + 512 reads.
    for n in 0...9 {
      let invokes = n == 9 ? "" : "<invoke id=\"a\" src=\"d\(n + 1).scxml\"/><invoke id=\"b\" src=\"d\(n + 1).scxml\"/>"
      let document = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" name="d\(n)"><state id="s">\(invokes)</state></scxml>
        """
      try Data(document.utf8).write(to: folder.appendingPathComponent("d\(n).scxml"))
    }
    let result = PackageFSM.run(["run", folder.appendingPathComponent("d0.scxml").path, "--events", ""])
    #expect(result.code == 2, "\(result.output)")
    #expect(result.errorOutput.contains("more than 256 documents invoked by src in one read"), "\(result.errorOutput)")
    // Fewer levels read whole: d4 invokes 2 + 4 + … + 32 = 62 documents.
    let fewer = PackageFSM.run(["run", folder.appendingPathComponent("d4.scxml").path, "--events", ""])
    #expect(fewer.code == 0, "\(fewer.errorOutput)")
  }

  @Test("what cannot be invoked is a typed error naming the line", arguments: bad)
  func refuses(_ c: Bad) throws {
    let path = try Self.write(Self.parent(c.invoke))
    defer { Self.remove(path) }
    let result = PackageFSM.run(["run", path, "--events", ""])
    #expect(result.code == 2, "\(result.output)")
    #expect(result.errorOutput.contains(c.message), "\(result.errorOutput)")
    #expect(result.errorOutput.contains("line "), "\(result.errorOutput)")
  }

  @Test("a store runs a chart's invocations as child machines: a String chart's done.invoke.<id> is that name")
  func storeRuns() async throws {
    typealias C = Chart<String, String, NoContext, Command<String, String>>
    var waiting = ChartState<String, String, NoContext, Command<String, String>>.atomic(
      "waiting", transitions: [.on("done.invoke.child", to: "done")])
    waiting.invokes = [ChartInvoke(id: "child", chart: try C(name: "child", states: [.atomic("a", transitions: [.on("stop", to: "end")]), .final("end")]))]
    let chart = try C(name: "parent", states: [waiting, .final("done")])
    let store = try Store(chart, context: NoContext(), handler: { _, _ in })
    store.start()
    await store.settle()
    #expect(store.children == ["child"])
    #expect(store.send("stop", to: "child") == .accepted)
    await store.settle()
    #expect(store.configuration == ["done"])
    #expect(store.children.isEmpty)
    await store.finish()
  }

  @Test("the W3C invoke tests that need no datamodel pass", .enabled(if: SCION.present, "../shared is missing"))
  func w3c() throws {
    let folder = SCION.folder.replacingOccurrences(of: "/scion", with: "/scion-ecmascript") + "/w3c-ecma"
    for test in ["test192", "test220", "test229", "test232", "test235", "test242", "test247", "test347"] {
      let result = PackageFSM.run(["conform", "\(folder)/\(test).txml.scxml"])
      #expect(result.output.contains("1 passed"), "\(test): \(result.output)")
    }
  }
}
