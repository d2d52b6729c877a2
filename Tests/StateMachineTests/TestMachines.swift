import StateMachine

/// A turnstile-like door with context, payload events, guards, wildcards, stay and ignore rows,
/// entry and exit effects: every feature of a table in one small machine.
enum Door {
  enum State: String, Hashable, Sendable, CaseIterable, Discriminated {
    case closed, open, locked, broken
  }

  enum Event: Hashable, Sendable, Discriminated {
    case open, close, lock(code: Int), unlock(code: Int), knock, smash

    enum Kind: String, Hashable, Sendable, CaseIterable { case open, close, lock, unlock, knock, smash }
    var discriminant: Kind {
      switch self {
      case .open: .open
      case .close: .close
      case .lock: .lock
      case .unlock: .unlock
      case .knock: .knock
      case .smash: .smash
      }
    }
  }

  struct Context: Hashable, Sendable {
    var code = 0
    var knocks = 0
  }

  enum Effect: Hashable, Sendable, CustomStringConvertible {
    case chime, lightOn, lightOff, bolt(Int), alarm
    var description: String {
      switch self {
      case .chime: "chime"
      case .lightOn: "lightOn"
      case .lightOff: "lightOff"
      case .bolt(let code): "bolt(\(code))"
      case .alarm: "alarm"
      }
    }
  }

  static let rightCode = Guard<Context, Event>("rightCode") { context, event in
    if case .unlock(let code) = event { code == context.code } else { false }
  }

  static let rows: [Row<State, Event, Context, Effect>] = [
    .transition(from: .closed, on: .open, to: .open, effects: .chime),
    .transition(from: .open, on: .close, to: .closed),
    .transition(from: .closed, on: .lock, to: .locked)
      .update { context, event in if case .lock(let code) = event { context.code = code } }
      .emit("bolt") { context, _ in .bolt(context.code) },
    .transition(from: .locked, on: .unlock, to: .closed).when(rightCode),
    .stay(in: .locked, on: .unlock, effects: .alarm),
    .stay(in: [.closed, .locked], on: .knock).update { context, _ in context.knocks += 1 },
    .ignore(in: .open, on: .open),
    .fromAny(on: .smash, to: .broken, effects: .alarm),
  ]

  static let table = try! TransitionTable<State, Event, Context, Effect>(
    name: "door",
    initial: .closed,
    states: [
      .state(.closed),
      .state(.open, entry: [.lightOn], exit: [.lightOff]),
      .state(.locked),
      .final(.broken),
    ],
    rows: rows)
}
