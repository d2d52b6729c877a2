import FSMCommand
import Foundation
import StateMachine
import StateMachineChecking
import StateMachineExamples

/// The shipped machines, each stepped on seeded random events from its own model's alphabet
/// (as a user's app would see them, guards and payloads included): the tables by
/// ``Machine/send(_:)``, the charts by ``ChartMachine/send(_:)``. A chart that halts starts
/// again; a table in a final state stays there (its events are then cheap ignores, which only
/// makes the tables faster beside the charts).
enum ShippedBench {
  /// Steps the model's table through `events`.
  static func table<S, E, C, Eff>(_ model: MachineModel<TransitionTable<S, E, C, Eff>>, _ events: [E]) -> Int {
    var machine = Machine(model.definition, context: model.context)
    for event in events { _ = machine.send(event) }
    return withExtendedLifetime(machine) { events.count }
  }

  static func chart<ID, E: Discriminated, C, Eff>(_ model: MachineModel<Chart<ID, E, C, Eff>>, _ events: [E]) -> Int {
    var machine = ChartMachine(model.definition, context: model.context)
    guard (try? machine.start()) != nil else { return -1 }
    for event in events {
      if machine.isHalted {
        machine = ChartMachine(model.definition, context: model.context)
        guard (try? machine.start()) != nil else { return -1 }
      }
      guard (try? machine.send(event)) != nil else { return -1 }
    }
    return events.count
  }

  static func events<E>(_ alphabet: [E], count: Int, seed: UInt64) -> [E] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
  }

  static func workload(count: Int) -> BenchWorkload {
    let login = events(Login.model.alphabet, count: count, seed: 1)
    let captcha = events(Captcha.model.alphabet, count: count, seed: 2)
    let registration = events(Registration.model.alphabet, count: count, seed: 3)
    let cdPlayer = events(CDPlayer.model.alphabet, count: count, seed: 4)
    let loader = events(Loader.model.alphabet, count: count, seed: 5)
    let phoneLogin = events(PhoneLogin.model.alphabet, count: count, seed: 6)
    let radio = events(Radio.model.alphabet, count: count, seed: 7)
    let easy = ChartBench.compound() as ChartBench.BenchChart
    let easyEvents = events([ChartBench.Input.x, .y, .z], count: count, seed: 8)
    return BenchWorkload(
      name: "shipped", events: count,
      variants: [
        BenchVariant(name: "table login") { table(Login.model, login) },
        BenchVariant(name: "table captcha") { table(Captcha.model, captcha) },
        BenchVariant(name: "table registration") { table(Registration.model, registration) },
        BenchVariant(name: "table cd-player") { table(CDPlayer.model, cdPlayer) },
        BenchVariant(name: "chart loader") { chart(Loader.model, loader) },
        BenchVariant(name: "chart phone-login") { chart(PhoneLogin.model, phoneLogin) },
        BenchVariant(name: "chart radio") { chart(Radio.model, radio) },
        BenchVariant(name: "chart easy (bench-compound)") {
          var machine = ChartMachine(easy, context: NoContext())
          guard (try? machine.start()) != nil else { return -1 }
          for event in easyEvents { guard (try? machine.send(event)) != nil else { return -1 } }
          return count
        },
      ])
  }
}
