import StateMachine
import StateMachineExamples
import Testing

@Suite("Registration rows")
struct RegistrationRows {
  typealias Case = RowCase<Registration.State, Registration.Event, Registration.Context>
  static let good = Registration.Context(username: "abcd", password: "Password", confirmation: "Password")
  static var failed: Registration.Context {
    var context = good
    context.message = "taken"
    return context
  }

  static let cases: [Case] = [
    Case("edit username", .editing, .init(), .editUsername("ab"), to: .editing) { $0.username = "ab" },
    Case("edit password", .editing, .init(), .editPassword("pw"), to: .editing) { $0.password = "pw" },
    Case("edit confirmation", .editing, .init(), .editConfirmation("pw"), to: .editing) { $0.confirmation = "pw" },
    Case("edit username after a failure", .failed, failed, .editUsername("abcde"), to: .editing) {
      ($0.username, $0.message) = ("abcde", nil)
    },
    Case("edit password after a failure", .failed, failed, .editPassword("x"), to: .editing) {
      ($0.password, $0.message) = ("x", nil)
    },
    Case("edit confirmation after a failure", .failed, failed, .editConfirmation("x"), to: .editing) {
      ($0.confirmation, $0.message) = ("x", nil)
    },
    Case("submit with every requirement", .editing, good, .submit, to: .submitting, effects: [#"register("abcd") (in state)"#]),
    Case("submit again after a failure", .failed, failed, .submit, to: .submitting, effects: [#"register("abcd") (in state)"#]) {
      $0.message = nil
    },
    Case("submit with a short password is ignored", .editing, .init(username: "abcd", password: "Pass", confirmation: "Pass"),
         .submit, to: .editing),
    Case("registered", .submitting, good, .registered, to: .done),
    Case("refused", .submitting, good, .registrationFailed("taken"), to: .failed) { $0.message = "taken" },
  ]

  @Test(arguments: cases) func row(_ c: Case) { c.check(Registration.table) }
  @Test func everyRowIsCovered() { expectEveryRowCovered(by: Self.cases, of: Registration.table) }

  struct Requirement: Sendable, CustomTestStringConvertible {
    let label: String
    let username, password, confirmation: String
    let flags: [Bool]
    var testDescription: String { label }
  }

  @Test(arguments: [
    Requirement(label: "all empty", username: "", password: "", confirmation: "", flags: [false, false, false, false]),
    Requirement(label: "3-letter name", username: "abc", password: "Password", confirmation: "Password", flags: [false, true, true, true]),
    Requirement(label: "7-letter password", username: "abcd", password: "Passwor", confirmation: "Passwor", flags: [true, false, true, true]),
    Requirement(label: "no uppercase", username: "abcd", password: "password", confirmation: "password", flags: [true, true, false, true]),
    Requirement(label: "confirmation differs", username: "abcd", password: "Password", confirmation: "Passwore", flags: [true, true, true, false]),
    Requirement(label: "empty confirmation", username: "abcd", password: "Password", confirmation: "", flags: [true, true, true, false]),
    Requirement(label: "all hold", username: "abcd", password: "Password", confirmation: "Password", flags: [true, true, true, true]),
  ])
  func requirements(_ r: Requirement) {
    let flags = Registration.Context(username: r.username, password: r.password, confirmation: r.confirmation).requirements
    #expect([flags.usernameLongEnough, flags.passwordLongEnough, flags.passwordHasUppercase, flags.confirmationMatches] == r.flags)
    #expect(flags.allHold == !r.flags.contains(false))
  }
}

@Suite("Tiny machines' rows")
struct TinyRows {
  @Test(arguments: [
    RowCase<NameLength.State, NameLength.Event, NameLength.Context>("a name", .editing, .init(), .editName("Ada"), to: .editing) {
      $0.name = "Ada"
    }
  ])
  func nameLength(_ c: RowCase<NameLength.State, NameLength.Event, NameLength.Context>) {
    c.check(NameLength.table)
    expectEveryRowCovered(by: [c], of: NameLength.table)
    #expect(NameLength.Context(name: "Ada").label == "length: 3")
  }

  @Test func counter() {
    let c = RowCase<Counter.State, Counter.Event, Counter.Context>("a tick", .counting, .init(count: 4), .tick, to: .counting) {
      $0.count = 5
    }
    c.check(Counter.table)
    expectEveryRowCovered(by: [c], of: Counter.table)
  }
}
