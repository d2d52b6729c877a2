import StateMachine
import StateMachineExamples
import Testing

/// A kind's associated types are named through `MachineDefinition` and `MachineInstance`, as a
/// user's code names them (`TransitionTable<…>.Configuration`), now that the kinds no longer
/// repeat them as typealiases the compiler infers.
@Suite("Associated types named through the machine protocols")
struct AssociatedTypeTests {
  typealias LoginTable = TransitionTable<Login.State, Login.Event, Login.Context, Login.Effect>
  typealias RadioChart = Chart<Radio.State, Radio.Event, NoContext, Radio.Effect>

  @Test("a table's, a chart's and a system's configuration, instance, failures and state names are the types they were")
  func named() {
    #expect(LoginTable.Configuration.self == Login.State.self)
    #expect(LoginTable.StateName.self == Login.State.Discriminant.self)
    #expect(LoginTable.Instance.Definition.self == LoginTable.self)
    #expect(LoginTable.Instance.Failure.self == Never.self)
    #expect(LoginTable.Instance.RestoreFailure.self == TableValidationError.self)
    #expect(RadioChart.Configuration.self == [Radio.State].self)
    #expect(RadioChart.StateName.self == Radio.State.self)
    #expect(RadioChart.Instance.Definition.self == RadioChart.self)
    #expect(RadioChart.Instance.Failure.self == ChartRunError.self)
    #expect(RadioChart.Instance.RestoreFailure.self == ChartRestoreError.self)
    #expect(MachineSystem<RadioChart>.StateName.self == Radio.State.self)
    typealias RadioSystem = MachineSystem<RadioChart>
    #expect(RadioSystem.Configuration.self == SystemConfiguration<[Radio.State]>.self)
    #expect(RadioSystem.Instance.Definition.self == RadioSystem.self)
    #expect(RadioSystem.Instance.Failure.self == SystemRunError.self)
    #expect(RadioSystem.Instance.Snapshot.self == SystemMachine<RadioChart>.self)
    #expect(RadioSystem.Instance.RestoreFailure.self == Never.self)
  }
}
