import FSMCommand
import StateMachine
import StateMachineExamples

/// Boost.SML's "simple" benchmark: the CD player's 11-event cycle, repeated.
enum CDPlayerBench {
  typealias State = CDPlayer.State
  typealias Event = CDPlayer.Event

  /// The baseline: the same 12 transitions as a hand-written switch, inlined; the action is
  /// counted so the work cannot be dropped, like the framework's effects.
  @inline(__always)
  static func next(_ state: State, _ event: Event) -> (State, CDPlayer.Action?) {
    switch (state, event) {
    case (.stopped, .play): (.playing, .startPlayback)
    case (.paused, .endPause): (.playing, .resumePlayback)
    case (.open, .openClose): (.empty, .closeDrawer)
    case (.empty, .openClose): (.open, .openDrawer)
    case (.paused, .openClose): (.open, .stopAndOpen)
    case (.stopped, .openClose): (.open, .openDrawer)
    case (.playing, .openClose): (.open, .stopAndOpen)
    case (.playing, .pause): (.paused, .pausePlayback)
    case (.playing, .stop): (.stopped, .stopPlayback)
    case (.paused, .stop): (.stopped, .stopPlayback)
    case (.empty, .cdDetected): (.stopped, .storeCDInfo)
    case (.stopped, .stop): (.stopped, .stoppedAgain)
    default: (state, nil)
    }
  }

  /// A cheap number per state for the checksum (a switch compiles to the enum's tag).
  @inline(__always)
  static func ordinal(_ state: State) -> Int {
    switch state {
    case .empty: 0
    case .open: 1
    case .stopped: 2
    case .playing: 3
    case .paused: 4
    }
  }

  struct Pair: Hashable {
    var state: State
    var event: Event
  }

  static func workload(cycles: Int) -> BenchWorkload {
    var events: [Event] = []
    events.reserveCapacity(cycles * CDPlayer.benchmarkCycle.count)
    for _ in 0..<cycles { events += CDPlayer.benchmarkCycle }
    let table = CDPlayer.table
    var lookup: [Pair: (State, CDPlayer.Action)] = [:]
    for s in State.allCases {
      for e in Event.allCases { if case (let t, let a?) = next(s, e) { lookup[Pair(state: s, event: e)] = (t, a) } }
    }
    let dictionary = lookup
    return BenchWorkload(
      name: "cd-player", events: events.count,
      variants: [
        BenchVariant(name: "switch") {
          var state = State.empty
          var sum = 0
          for event in events {
            let (target, action) = next(state, event)
            state = target
            sum &+= ordinal(state) &+ (action == nil ? 0 : 1)
          }
          return sum
        },
        BenchVariant(name: "dictionary") {
          var state = State.empty
          var sum = 0
          for event in events {
            let hit = dictionary[Pair(state: state, event: event)]
            if let hit { state = hit.0 }
            sum &+= ordinal(state) &+ (hit == nil ? 0 : 1)
          }
          return sum
        },
        BenchVariant(name: "machine.send") {
          var machine = Machine(table)
          var sum = 0
          for event in events {
            let outcome = machine.send(event)
            sum &+= ordinal(machine.state) &+ outcome.effects.count
          }
          return sum
        },
      ],
      notes: ["machine_bytes": Double(MemoryLayout<Machine<State, Event, NoContext, CDPlayer.Action>>.size)])
  }
}
