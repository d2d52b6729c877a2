import Foundation
import StateMachine
import Testing

// The README's typed statechart, kept compiling and true here.
enum Mode: Hashable, Sendable, Codable { case off, on, resume, playback, stopped, playing, paused, volume, normal, loud }

enum Key: Sendable, Codable, Discriminated {
  case power, play, pause, louder, quieter
  case seek(seconds: Int)

  enum Kind: UInt8, Hashable, Sendable { case power, play, pause, louder, quieter, seek }
  var discriminant: Kind {
    switch self {
    case .power: .power
    case .play: .play
    case .pause: .pause
    case .louder: .louder
    case .quieter: .quieter
    case .seek: .seek
    }
  }
}

struct Deck: Sendable, Equatable, Codable { var position = 0 }

@Suite("Typed statecharts: your own enums, payloads by case, guards and updates")
struct TypedChartTests {
  static func player() throws -> Chart<Mode, Key, Deck, String> {
    let player = try Chart<Mode, Key, Deck, String>(name: "player", states: [
      .atomic(.off, transitions: [.on(.power, to: .resume)]),
      .parallel(.on, regions: [
        .history(.resume, deep: true, default: [.stopped, .normal]),
        .compound(.playback, children: [
          .atomic(.stopped, transitions: [.on(.play, to: .playing)]),
          .atomic(.playing, transitions: [
            .on(.pause, to: .paused),
            .on(.seek, do: [.update { deck, key in if case .seek(let s)? = key { deck.position += s } }]),
          ]),
          .atomic(.paused, transitions: [.on(.play, to: .playing)]),
        ]),
        .compound(.volume, children: [
          .atomic(.normal, transitions: [.on(.louder, to: .loud)]),
          .atomic(.loud, transitions: [.on(.louder, do: [.effect("already loud")]), .on(.quieter, to: .normal)]),
        ]),
      ], transitions: [.on(.power, when: ChartGuard("not at the start") { deck, _ in deck.position > 0 }, to: .off)]),
    ])
    return player
  }

  @Test("payload cases match by case; updates see the payload; guards read the context; deep history")
  func player() throws {
    var machine = ChartMachine(try Self.player(), context: Deck())
    _ = try machine.start()
    _ = try machine.send(.power)
    _ = try machine.send(.play)
    #expect(machine.configuration == [.playing, .normal])
    _ = try machine.send(.power)
    #expect(machine.configuration == [.playing, .normal], "the guard holds back power at position 0")
    _ = try machine.send(.seek(seconds: 30))
    #expect(machine.context.position == 30)
    _ = try machine.send(.louder)
    #expect(try machine.send(.louder).effects == ["already loud"])
    _ = try machine.send(.power)
    #expect(machine.configuration == [.off])
    _ = try machine.send(.power)
    #expect(machine.configuration == [.playing, .loud], "deep history brings both regions back")
  }

  @Test("a typed chart is checked when built, every problem listed")
  func checked() {
    #expect(throws: ChartError.self) {
      try Chart<Mode, Key, Deck, String>(name: "bad", states: [
        .atomic(.off, transitions: [.on(.power, to: .on)]),
        .final(.stopped),
        .atomic(.off),
      ])
    }
  }

  @Test("a typed chart exports as its own names: Mermaid and the Markdown spec")
  func exports() throws {
    let chart = try Self.player()
    #expect(chart.mermaid().contains("state playback {"))
    #expect(chart.markdown().contains("| playing | seek |  |  |  | (update) |"))
  }
}

@Suite("Named updates in a chart's table and diagram")
struct NamedUpdateTests {
  @Test("a named update shows by its name (quoted when it reads as an action keyword); an unnamed one as (update)")
  func names() throws {
    let chart = try Chart<Mode, Key, Deck, String>(name: "named", states: [
      .atomic(.off, transitions: [
        .on(.seek, do: [.update("move the head") { deck, _ in deck.position += 1 }]),
        .on(.play, do: [.update("send later") { _, _ in }]),
        .on(.pause, do: [.update { _, _ in }]),
      ]),
    ])
    let markdown = chart.markdown()
    #expect(markdown.contains("| off | seek |  |  |  | move the head |"), "\(markdown)")
    #expect(markdown.contains("| off | play |  |  |  | `send later` |"), "\(markdown)")
    #expect(markdown.contains("| off | pause |  |  |  | (update) |"), "\(markdown)")
    #expect(chart.mermaid().contains("off --> off : seek / move the head"))
    var machine = ChartMachine(chart, context: Deck())
    _ = try machine.start()
    _ = try machine.send(.seek(seconds: 5))
    #expect(machine.context.position == 1, "the name changes nothing of what it does")
  }
}
