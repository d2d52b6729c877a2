import FSMCommand
import StateMachine

/// The `loader` workload: idle/loading/success/failure/retry driven by random valid events.
enum LoaderBench {
  enum State: UInt8, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case idle, loading, success, failure, retry
  }
  enum Event: UInt8, Hashable, Sendable, CaseIterable, Codable, Discriminated {
    case load, succeeded, failed, retryTapped, reset
  }

  static let table = try! TransitionTable<State, Event, NoContext, Never>(
    name: "loader-bench",
    initial: .idle,
    rows: [
      .transition(from: [.idle, .success, .retry], on: .load, to: .loading),
      .transition(from: .loading, on: .succeeded, to: .success),
      .transition(from: .loading, on: .failed, to: .failure),
      .transition(from: .failure, on: .retryTapped, to: .retry),
      .transition(from: [.success, .failure, .retry], on: .reset, to: .idle),
    ])

  /// The same machine keyed on types with no ordinal and no `allCases`, so the table
  /// dispatches by scanning the current state's rows: the path every discriminant can take.
  struct ScanState: Hashable, Discriminated {
    var state: State
    init(_ state: State) { self.state = state }
  }
  struct ScanEvent: Hashable, Discriminated {
    var event: Event
    init(_ event: Event) { self.event = event }
  }

  static let scanTable = try! TransitionTable<ScanState, ScanEvent, NoContext, Never>(
    name: "loader-bench-scan",
    initial: ScanState(.idle),
    rows: table.rows.map { row in
      let target = ScanState(row.targetCase!)
      return .transition(from: row.sourceStates.map(ScanState.init), on: ScanEvent(row.event), to: target)
    })

  /// The baseline: a hand-written enum + switch, inlined.
  @inline(__always)
  static func next(_ state: State, _ event: Event) -> State {
    switch (state, event) {
    case (.idle, .load), (.success, .load), (.retry, .load): .loading
    case (.loading, .succeeded): .success
    case (.loading, .failed): .failure
    case (.failure, .retryTapped): .retry
    case (.success, .reset), (.failure, .reset), (.retry, .reset): .idle
    default: state
    }
  }

  /// The baseline variant over `events`: the hand-written switch.
  static func switchVariant(_ name: String = "switch", events: [Event]) -> BenchVariant {
    BenchVariant(name: name) {
      var state = State.idle
      var sum = 0
      for event in events {
        state = next(state, event)
        sum &+= Int(state.rawValue)
      }
      return sum
    }
  }

  /// The switch stepping `events`, answering how many it stepped (the checksum of workloads
  /// whose variants count their events).
  static func countingSwitchVariant(_ name: String, events: [Event]) -> BenchVariant {
    BenchVariant(name: name) {
      var state = State.idle
      var steps = 0
      for event in events {
        state = next(state, event)
        steps &+= 1
      }
      blackHole(state)
      return steps
    }
  }

  /// `count` events, each one valid in the state the previous ones lead to.
  static func events(count: Int, seed: UInt64) -> [Event] {
    var generator = SplitMix64(seed: seed)
    var state = State.idle
    var events: [Event] = []
    events.reserveCapacity(count)
    let valid: [State: [Event]] = [
      .idle: [.load], .loading: [.succeeded, .failed], .success: [.load, .reset],
      .failure: [.retryTapped, .reset], .retry: [.load, .reset],
    ]
    for _ in 0..<count {
      let choices = valid[state]!
      let event = choices[Int(generator.next() % UInt64(choices.count))]
      events.append(event)
      state = next(state, event)
    }
    return events
  }

  struct Pair: Hashable {
    var state: State
    var event: Event
  }

  static func workload(count: Int) -> BenchWorkload {
    let events = Self.events(count: count, seed: 0x5EED)
    let (table, scanTable) = (Self.table, Self.scanTable)  // built here, not in the first timed run
    let dictionary: [Pair: State] = Dictionary(
      uniqueKeysWithValues: State.allCases.flatMap { s in
        Event.allCases.compactMap { e in next(s, e) == s ? nil : (Pair(state: s, event: e), next(s, e)) }
      })
    return BenchWorkload(
      name: "loader", events: count,
      variants: [
        switchVariant(events: events),
        BenchVariant(name: "dictionary") {
          var state = State.idle
          var sum = 0
          for event in events {
            state = dictionary[Pair(state: state, event: event)] ?? state
            sum &+= Int(state.rawValue)
          }
          return sum
        },
        BenchVariant(name: "machine.send") {
          var machine = Machine(table)
          var sum = 0
          for event in events {
            machine.send(event)
            sum &+= Int(machine.state.rawValue)
          }
          return sum
        },
        BenchVariant(name: "machine.send, scan dispatch") {
          var machine = Machine(scanTable)
          var sum = 0
          for event in events {
            machine.send(ScanEvent(event))
            sum &+= Int(machine.state.state.rawValue)
          }
          return sum
        },
      ] + StoreBench.loaderVariants(events: events) + [
        BenchVariant(name: "table.step (pure)") {
          var state = State.idle
          var sum = 0
          for event in events {
            state = table.step(state, NoContext(), event).state
            sum &+= Int(state.rawValue)
          }
          return sum
        },
      ],
      notes: [
        "machine_bytes": Double(MemoryLayout<Machine<State, Event, NoContext, Never>>.size),
        "bytes_per_idle_store": StoreBench.bytesPerIdleStore(count: 100_000),
      ])
  }
}
