import Testing
import StateMachine
import StateMachineExamples

@Test func smoke() {
  var m = Machine(CDPlayer.table)
  #expect(m.send(.openClose) == .transitioned(from: .empty, to: .open, effects: [.openDrawer]))
}
