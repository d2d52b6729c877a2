import StateMachine
import StateMachineExamples
import Testing

@Suite("The step, row by row")
struct StepTests {
  struct CDCase: Sendable, CustomTestStringConvertible {
    let label: String
    let state: CDPlayer.State
    let event: CDPlayer.Event
    let expected: StepOutcome<CDPlayer.State, CDPlayer.Action>
    var testDescription: String { label }
  }

  /// Every row of Boost.SML's CD player, plus pairs no row handles.
  static let cdCases: [CDCase] = [
    .init(label: "stopped play", state: .stopped, event: .play, expected: .transitioned(from: .stopped, to: .playing, effects: [.startPlayback])),
    .init(label: "paused endPause", state: .paused, event: .endPause, expected: .transitioned(from: .paused, to: .playing, effects: [.resumePlayback])),
    .init(label: "open openClose", state: .open, event: .openClose, expected: .transitioned(from: .open, to: .empty, effects: [.closeDrawer])),
    .init(label: "empty openClose", state: .empty, event: .openClose, expected: .transitioned(from: .empty, to: .open, effects: [.openDrawer])),
    .init(label: "paused openClose", state: .paused, event: .openClose, expected: .transitioned(from: .paused, to: .open, effects: [.stopAndOpen])),
    .init(label: "stopped openClose", state: .stopped, event: .openClose, expected: .transitioned(from: .stopped, to: .open, effects: [.openDrawer])),
    .init(label: "playing openClose", state: .playing, event: .openClose, expected: .transitioned(from: .playing, to: .open, effects: [.stopAndOpen])),
    .init(label: "playing pause", state: .playing, event: .pause, expected: .transitioned(from: .playing, to: .paused, effects: [.pausePlayback])),
    .init(label: "playing stop", state: .playing, event: .stop, expected: .transitioned(from: .playing, to: .stopped, effects: [.stopPlayback])),
    .init(label: "paused stop", state: .paused, event: .stop, expected: .transitioned(from: .paused, to: .stopped, effects: [.stopPlayback])),
    .init(label: "empty cdDetected", state: .empty, event: .cdDetected, expected: .transitioned(from: .empty, to: .stopped, effects: [.storeCDInfo])),
    .init(label: "stopped stop (self)", state: .stopped, event: .stop, expected: .transitioned(from: .stopped, to: .stopped, effects: [.stoppedAgain])),
    .init(label: "empty play: no row, ignore policy", state: .empty, event: .play, expected: .ignored),
    .init(label: "open cdDetected: no row, ignore policy", state: .open, event: .cdDetected, expected: .ignored),
  ]

  @Test("CD player: pure step", arguments: cdCases)
  func cdPlayerPureStep(_ c: CDCase) {
    let step = CDPlayer.table.step(c.state, NoContext(), c.event)
    #expect(step.outcome == c.expected)
    if case .transitioned(_, let to, _) = c.expected { #expect(step.state == to) } else { #expect(step.state == c.state) }
  }

  @Test("CD player: machine instance agrees with the pure step", arguments: cdCases)
  func cdPlayerMachine(_ c: CDCase) throws {
    var machine = try Machine(CDPlayer.table, state: c.state, context: NoContext())
    #expect(machine.send(c.event) == c.expected)
    #expect(machine.state == CDPlayer.table.step(c.state, NoContext(), c.event).state)
  }

  struct DoorCase: Sendable, CustomTestStringConvertible {
    let label: String
    let state: Door.State
    let context: Door.Context
    let event: Door.Event
    let expected: StepOutcome<Door.State, Door.Effect>
    let context2: Door.Context
    let row: Int?
    var testDescription: String { label }
  }

  static let doorCases: [DoorCase] = [
    .init(label: "open: exit none, row chime, entry lightOn", state: .closed, context: .init(), event: .open,
          expected: .transitioned(from: .closed, to: .open, effects: [.chime, .lightOn]), context2: .init(), row: 0),
    .init(label: "close: exit lightOff first", state: .open, context: .init(), event: .close,
          expected: .transitioned(from: .open, to: .closed, effects: [.lightOff]), context2: .init(), row: 1),
    .init(label: "lock with payload: update then made effect", state: .closed, context: .init(), event: .lock(code: 42),
          expected: .transitioned(from: .closed, to: .locked, effects: [.bolt(42)]), context2: .init(code: 42), row: 2),
    .init(label: "unlock, right code: guarded row wins", state: .locked, context: .init(code: 7), event: .unlock(code: 7),
          expected: .transitioned(from: .locked, to: .closed, effects: []), context2: .init(code: 7), row: 3),
    .init(label: "unlock, wrong code: falls to the unguarded stay row", state: .locked, context: .init(code: 7), event: .unlock(code: 1),
          expected: .stayed(effects: [.alarm]), context2: .init(code: 7), row: 4),
    .init(label: "knock: stay updates context, no exit or entry", state: .closed, context: .init(), event: .knock,
          expected: .stayed(effects: []), context2: .init(knocks: 1), row: 5),
    .init(label: "open while open: declared ignore", state: .open, context: .init(), event: .open,
          expected: .ignored, context2: .init(), row: 6),
    .init(label: "smash from open: wildcard, exit effects kept", state: .open, context: .init(), event: .smash,
          expected: .transitioned(from: .open, to: .broken, effects: [.lightOff, .alarm]), context2: .init(), row: 7),
    .init(label: "knock while open: undeclared", state: .open, context: .init(), event: .knock,
          expected: .rejected(.undeclared), context2: .init(), row: nil),
    .init(label: "anything in broken but smash: undeclared", state: .broken, context: .init(), event: .open,
          expected: .rejected(.undeclared), context2: .init(), row: nil),
  ]

  @Test("Door: outcome, context and row", arguments: doorCases)
  func door(_ c: DoorCase) {
    let step = Door.table.step(c.state, c.context, c.event)
    #expect(step.outcome == c.expected)
    #expect(step.context == c.context2)
    #expect(step.row == c.row)
  }

  @Test("A rejected event changes neither state nor context")
  func rejectionKeepsEverything() throws {
    var machine = try Machine(Door.table, state: .open, context: .init(code: 3, knocks: 2))
    #expect(machine.send(.knock) == .rejected(.undeclared))
    #expect(machine.state == .open)
    #expect(machine.context == .init(code: 3, knocks: 2))
  }

  @Test("start() returns the initial state's entry effects")
  func startEffects() throws {
    let table = try TransitionTable<Door.State, Door.Event, Door.Context, Door.Effect>(
      initial: .open, states: [.state(.open, entry: [.lightOn]), .state(.closed)],
      rows: [.transition(from: .open, on: .close, to: .closed)])
    #expect(Machine(table, context: .init()).start() == [.lightOn])
    #expect(Machine(Door.table, context: .init()).start() == [])
  }

  @Test("A state the table does not know is rejected, never a trap")
  func unknownState() throws {
    let table = try TransitionTable<String, String, NoContext, String>(initial: "a", rows: [.transition(from: "a", on: "go", to: "b")])
    #expect(table.step("zzz", NoContext(), "go").outcome == .rejected(.unknownState))
    #expect(throws: TableValidationError.self) { try Machine(table, state: "zzz", context: NoContext()) }
  }

  @Test("Machines share one table and keep their own state")
  func instancesAreIndependent() {
    var a = Machine(CDPlayer.table)
    let b = Machine(CDPlayer.table)
    a.send(.openClose)
    #expect(a.state == .open)
    #expect(b.state == .empty)
  }
}
