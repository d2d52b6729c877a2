import Foundation
import StateMachine
import Testing

@Suite("README statechart example")
struct ReadmeChartTests {
  @Test("the Swift player chart runs as the README says")
  func player() throws {
    let player = try Chart<String, String, NoContext, String>(name: "player", states: [
      .atomic("off", transitions: [.on("power", to: "resume")]),
      .parallel("on", regions: [
        .history("resume", deep: true, default: ["stopped", "normal"]),
        .compound("playback", children: [
          .atomic("stopped", transitions: [.on("play", to: "playing")]),
          .atomic("playing", transitions: [.on("pause", to: "paused"), .on("stop", to: "stopped")]),
          .atomic("paused", transitions: [.on("play", to: "playing")]),
        ]),
        .compound("volume", children: [
          .atomic("normal", transitions: [.on("louder", to: "loud")]),
          .atomic("loud", transitions: [.on("louder", to: "tooLoud"), .on("quieter", to: "normal")]),
          .atomic("tooLoud", transitions: [.always(to: "loud")], onEntry: [.effect("too loud")]),
        ]),
      ], transitions: [.on("power", to: "off")]),
    ])
    var machine = ChartMachine(player, context: NoContext())
    _ = try machine.start()
    for event in ["power", "play", "louder"] { _ = try machine.send(event) }
    print(machine.configuration)               // ["playing", "loud"]
    #expect(machine.configuration == ["playing", "loud"])
    var copy = machine
    print(try machine.send("louder").effects)  // ["too loud"]
    #expect(try copy.send("louder").effects == ["too loud"])
    _ = try machine.send("power")
    _ = try machine.send("power")
    #expect(machine.configuration == ["playing", "loud"], "deep history brings both regions back")
  }

  @Test("Specs/player.scxml runs as the README shows")
  func playerDocument() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let chart = try SCXMLDocument.load(contentsOf: root.appendingPathComponent("Specs/player.scxml").path)
    var machine = TextMachine(chart, context: NoContext())
    _ = try machine.start()
    var seen: [[String]] = []
    for event in ["power", "play", "louder", "louder", "power", "power"] {
      _ = try machine.send(event)
      seen.append(machine.configuration)
    }
    #expect(seen == [["stopped", "normal"], ["playing", "normal"], ["playing", "loud"], ["playing", "loud"], ["off"], ["playing", "loud"]])
    #expect(chart.check().isEmpty)
  }
}
