import Foundation
import StateMachine
import Testing

@Suite("SCXML importer")
struct SCXMLTests {
  @Test("namespace prefixes, ids with dots, several targets, initial naming a history, several descriptors")
  func documentDetails() throws {
    let text = """
      <?xml version="1.0"?>
      <ns0:scxml xmlns:ns0="http://www.w3.org/2005/07/scxml" initial="p.h" datamodel="ecmascript" name="details">
        <ns0:parallel id="p">
          <ns0:history id="p.h" type="deep"><ns0:transition target="b1.1 b2.1"/></ns0:history>
          <ns0:state id="b1"><ns0:state id="b1.1"/><ns0:state id="b1.2"/></ns0:state>
          <ns0:state id="b2"><ns0:state id="b2.1"><ns0:transition event="x y.z" target="b2.2"/></ns0:state><ns0:state id="b2.2"/></ns0:state>
        </ns0:parallel>
      </ns0:scxml>
      """
    let chart = try SCXMLDocument.parse(Data(text.utf8), file: "details.scxml")
    #expect(chart.name == "details")
    var machine = TextMachine(chart, context: NoContext())
    _ = try machine.start()
    #expect(machine.configuration == ["b1.1", "b2.1"])
    _ = try machine.send("y.z.w")
    #expect(machine.configuration == ["b1.1", "b2.2"])
  }

  struct Bad: Sendable, CustomTestStringConvertible {
    let label: String
    let text: String
    let kind: SCXMLError.Kind
    let problems: [String]
    var testDescription: String { label }
  }

  static let open = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n"

  @Test("bad documents get one typed error listing every place", arguments: [
    Bad(label: "malformed XML", text: open + "<state id=\"a\">\n</scxml>", kind: .malformedXML, problems: ["line 3, column"]),
    Bad(label: "not XML at all", text: "hello", kind: .malformedXML, problems: ["line 1, column"]),
    Bad(label: "a DTD (entity expansion)", text: "<!DOCTYPE x [<!ENTITY a \"aaaa\">]>\n" + open + "</scxml>", kind: .malformedXML,
        problems: ["line 1: DTD declarations are not accepted (an SCXML document needs none)"]),
    Bad(label: "everything that needs a datamodel", text: open + """
      <datamodel><data id="x"/></datamodel>
      <state id="a">
        <onentry><assign location="x" expr="1"/><script>x++</script><send eventexpr="e"/></onentry>
        <transition cond="x > 1" target="a"/>
        <invoke srcexpr="'child.scxml'"/>
      </state>
      </scxml>
      """, kind: .needsDatamodel, problems: [
        "line 2: <data>: needs a datamodel", "line 4: <assign>: needs a datamodel", "line 4: <script>: needs a datamodel",
        "line 4: <send eventexpr>: needs a datamodel", "line 5: <transition cond>: needs a datamodel",
        "line 6: <invoke srcexpr>: needs a datamodel",
      ]),
    Bad(label: "a bad delay", text: open + "<state id=\"a\"><onentry><send event=\"e\" delay=\"soon\"/></onentry></state></scxml>",
        kind: .invalid, problems: ["line 2: <send>: delay 'soon'; expected a time such as 500ms or 1.5s"]),
    Bad(label: "an unknown element", text: open + "<state id=\"a\"><frobnicate/></state></scxml>", kind: .invalid,
        problems: ["line 2: <frobnicate>: unexpected in <state>"]),
    Bad(label: "an unknown target", text: open + "<state id=\"a\"><transition event=\"e\" target=\"nowhere\"/></state></scxml>",
        kind: .invalid, problems: ["line 2: state 'a': unknown target 'nowhere'"]),
    Bad(label: "the wrong root", text: "<html/>", kind: .invalid, problems: ["line 1: <html>: the root element is <html>; expected <scxml>"]),
    Bad(label: "nesting too deep", text: open + String(repeating: "<state>", count: 300) + "</scxml>", kind: .malformedXML,
        problems: ["elements nested deeper than 256 levels"]),
  ])
  func badDocuments(_ c: Bad) {
    do {
      _ = try SCXMLDocument.parse(Data(c.text.utf8), file: "bad.scxml")
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == c.kind)
      #expect(error.problems.count == max(1, c.problems.count) || c.kind == .malformedXML, "\(error)")
      for expected in c.problems {
        #expect(error.problems.contains { $0.description.contains(expected) }, "\(expected) in \(error)")
      }
      #expect(error.description.hasPrefix("bad.scxml: "))
    }
  }

  @Test("send targets: #_internal raises, other targets raise error.execution or error.communication")
  func sendTargets() throws {
    let chart = try scxml("""
      <state id="s">
        <onentry>
          <send event="ext"/>
          <send event="int" target="#_internal"/>
          <send event="x" target="#_scxml_other"/>
          <send event="x" target="somewhere"/>
          <send event="x" type="carrier-pigeon"/>
        </onentry>
        <transition event="int"><log expr="'int'"/></transition>
        <transition event="error.communication"><log expr="'communication'"/></transition>
        <transition event="error.execution"><log expr="'execution'"/></transition>
      </state>
      """)
    var machine = TextMachine(chart, context: NoContext())
    let step = try machine.start()
    #expect(step.effects == ["int", "communication", "execution", "execution"])
    #expect(step.outputs.count == 5)
    guard case .send("ext", after: .zero, id: nil) = step.outputs[0] else {
      Issue.record("the external send comes first, for the caller's queue: \(step.outputs)")
      return
    }
  }

  @Test("fuzz: mutated SCXML documents give a chart or a typed error, never a crash")
  func fuzz() throws {
    let base = Array(try String(contentsOfFile: Self.scionFile("history/history4.scxml") ?? "", encoding: .utf8).utf8)
    try #require(!base.isEmpty, "needs ../shared/scion")
    var generator = SplitMix64(seed: 21)
    let pieces = ["<", ">", "/>", "</state>", "<state id=\"z\">", "\"", "=", "&", "<history>", "<final/>", "target=\"", " "].map { Array($0.utf8) }
    var kinds: [String: Int] = [:]
    for _ in 0..<FuzzTests.count / 10 {
      var bytes = base
      for _ in 0..<(1 + Int(generator.next() % 3)) {
        let i = Int(generator.next() % UInt64(bytes.count))
        switch generator.next() % 3 {
        case 0: bytes.remove(at: i)
        case 1: bytes.insert(contentsOf: pieces[Int(generator.next() % UInt64(pieces.count))], at: i)
        default: bytes[i] ^= UInt8(1 << (generator.next() % 8))
        }
      }
      do {
        let chart = try SCXMLDocument.parse(Data(bytes), file: "f.scxml")
        var machine = TextMachine(chart, context: NoContext())
        _ = try? machine.start()
        kinds["ok", default: 0] += 1
      } catch {
        #expect(!error.problems.isEmpty)
        kinds[error.kind.rawValue, default: 0] += 1
      }
    }
    #expect(kinds.count >= 3, "\(kinds)")
  }

  /// A file of the SCION suite in `../shared/scion`, when it is there.
  static func scionFile(_ name: String) -> String? {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("shared/scion/" + name).path
    return FileManager.default.fileExists(atPath: root) ? root : nil
  }
}
