import StateMachine
import StateMachineExamples
import Testing

/// The scenario files in `Specs/`, run in the store with the fake services on a manual clock.
@Suite("Scenario files")
struct ScenarioTests {
  @Test(arguments: ScenarioFile.scenarios(of: "login"))
  func login(_ scenario: ScenarioFile.Scenario) async {
    await run(
      scenario,
      makeStore: { clock, inspector in Login.store(services: .fake(clock: clock), clock: clock, inspector: inspector) },
      parse: { name, text in
        switch name {
        case "start": .start
        case "editUsername": .editUsername(argument(text))
        case "editPassword": .editPassword(argument(text))
        case "submit": .submit
        case "reset": .reset
        default: nil
        }
      },
      screen: Login.screen)
  }

  @Test(arguments: ScenarioFile.scenarios(of: "loader"))
  func loader(_ scenario: ScenarioFile.Scenario) async {
    let server = Box<FakeUserServer>()
    await run(
      scenario,
      makeChartStore: { clock, inspector in
        server.value = FakeUserServer(clock: clock)
        let cache = InMemoryUserCache { Double(clock.now.offset.components.seconds) }
        let services = LoaderServices(fetchPage: server.value!.fetchPage, cache: cache)
        return Loader.store(services: services, clock: clock, inspector: inspector)
      },
      parse: { name, _ in
        switch name {
        case "load": .load
        case "retry": .retry
        case "reset": .reset
        default: nil
        }
      },
      setUp: { verb, text in
        let responses: [FakeUserServer.Response] = text.split(separator: " ").compactMap {
          switch $0 {
          case "users": .users
          case "emptyPage": .emptyPage
          case "garbage": .garbage
          case "networkFailure": .networkFailure
          case "strangeFailure": .strangeFailure
          default: nil
          }
        }
        guard verb == "server", responses.count == text.split(separator: " ").count else { return false }
        for response in responses { server.value?.queue(response) }
        return true
      },
      state: { "\(Loader.step($0))" },
      screen: Loader.screen)
  }

  @Test(arguments: ScenarioFile.scenarios(of: "captcha"))
  func captcha(_ scenario: ScenarioFile.Scenario) async {
    await run(
      scenario,
      makeStore: { clock, inspector in
        Captcha.store(codes: .fake(clock: clock, unreachable: ["13900000000"]), clock: clock, inspector: inspector)
      },
      parse: { name, text in
        switch name {
        case "editPhone": .editPhone(argument(text))
        case "tap": .tap
        case "reset": .reset
        default: nil
        }
      },
      screen: Captcha.screen)
  }

  @Test(arguments: ScenarioFile.scenarios(of: "registration"))
  func registration(_ scenario: ScenarioFile.Scenario) async {
    await run(
      scenario,
      makeStore: { clock, inspector in Registration.store(registrar: .fake(clock: clock), clock: clock, inspector: inspector) },
      parse: { name, text in
        switch name {
        case "editUsername": .editUsername(argument(text))
        case "editPassword": .editPassword(argument(text))
        case "editConfirmation": .editConfirmation(argument(text))
        case "submit": .submit
        default: nil
        }
      },
      screen: Registration.screen)
  }

  @Test(arguments: ScenarioFile.scenarios(of: "phone-login"))
  func phoneLogin(_ scenario: ScenarioFile.Scenario) async {
    await run(
      scenario,
      makeChartStore: { clock, inspector in PhoneLogin.store(services: .fake(clock: clock), clock: clock, inspector: inspector) },
      parse: { name, text in
        switch name {
        case "editPhone": .editPhone(argument(text))
        case "editCode": .editCode(argument(text))
        case "toggleAgreement": .toggleAgreement
        case "requestCode": .requestCode
        case "submit": .submit
        case "confirmAgreement": .confirmAgreement
        case "cancelAgreement": .cancelAgreement
        case "reset": .reset
        default: nil
        }
      },
      state: { "\(PhoneLogin.formStep($0))" },
      screen: PhoneLogin.screen)
  }

  @Test(arguments: ScenarioFile.scenarios(of: "radio"))
  func radio(_ scenario: ScenarioFile.Scenario) async {
    await run(
      scenario,
      makeChartStore: { clock, inspector in Radio.store(services: .fake(clock: clock), clock: clock, inspector: inspector) },
      parse: { name, _ in Radio.Event(rawValue: name) },
      state: { $0.map(\.rawValue).joined(separator: ", ") },
      screen: Radio.screen)
  }

  @Test(arguments: ScenarioFile.scenarios(of: "name-length"))
  func nameLength(_ scenario: ScenarioFile.Scenario) async {
    await run(
      scenario,
      makeStore: { clock, inspector in
        Store(NameLength.table, context: .init(), clock: clock, handler: { _, _ in }, inspector: inspector)
      },
      parse: { name, text in name == "editName" ? .editName(argument(text)) : nil },
      screen: { _, context in context.label })
  }

  @Test(arguments: ScenarioFile.scenarios(of: "counter"))
  func counter(_ scenario: ScenarioFile.Scenario) async {
    await run(
      scenario,
      makeStore: { clock, inspector in Counter.store(clock: clock, inspector: inspector) },
      parse: { _, _ in nil },
      screen: { _, context in "count: \(context.count)" })
  }
}

/// A value a test sets once from a closure and reads from another.
final class Box<Value: Sendable>: @unchecked Sendable {
  // Safe: set before the scenario runs its steps, read afterwards, on one task at a time.
  var value: Value?
}
