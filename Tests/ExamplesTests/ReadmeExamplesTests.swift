import StateMachine
import StateMachineExamples
import StateMachineTesting
import Testing

/// The README's example-machine snippets, as written there.
@Suite("README: example machines")
struct ReadmeExamplesTests {
  @Test func phoneLoginSnippet() async {
    let clock = ManualClock()
    let store = PhoneLogin.store(services: .fake(clock: clock), clock: clock)
    store.send(.editPhone("13800138000"))
    store.send(.requestCode)
    await clock.advance(by: .seconds(1))
    let label = PhoneLogin.codeButton(store.configuration, store.context)   // "60 s"
    #expect(label == "60 s")
    await store.finish()
  }

  @Test func wrongContextMessage() async throws {
    let store = TestStore(reportsFailures: false) { clock, inspector in
      Login.store(services: .fake(clock: clock), clock: clock, inspector: inspector)
    }
    try await store.send(.start, to: .credentials)
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(.editUsername("admin")) { $0.username = "root" }
    }
    #expect(failure?.message == """
      sent editUsername("admin"): the context differs:
        − expected: - username: "root"
        + actual:   - username: "admin"
      """)
    try await store.finish()
  }
}
