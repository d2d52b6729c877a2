public import StateMachine

/// What the login machine needs from the outside world.
public struct LoginServices: Sendable {
  /// Answers whether the credentials are right; may take time and may throw.
  public var authenticate: @Sendable (_ username: String, _ password: String) async throws -> Bool

  public init(authenticate: @escaping @Sendable (_ username: String, _ password: String) async throws -> Bool) {
    self.authenticate = authenticate
  }

  /// The authenticator of the original tutorial: accepts `admin` / `123456` after 1 s of `clock` time.
  public static func fake(clock: any Clock<Duration>) -> LoginServices {
    LoginServices { username, password in
      try await clock.sleep(for: .seconds(1))
      return username == "admin" && password == "123456"
    }
  }
}

extension Login {
  /// A store running ``table``.
  public typealias Runtime = Store<Table>

  /// A store running the login with `services`; an error thrown by the authenticator counts
  /// as a refusal.
  ///
  /// ```swift
  /// let clock = ManualClock()
  /// let store = Login.store(services: .fake(clock: clock), clock: clock)
  /// store.send(.start)
  /// store.send(.editUsername("admin"))
  /// ```
  public static func store(services: LoginServices, clock: any Clock<Duration>, context: Context = Context(), inspector: Runtime.Inspector? = nil) -> Runtime {
    Runtime(table, context: context, clock: clock, handler: services.perform, failure: { _, _ in .authenticationFailed }, inspector: inspector)
  }
}

extension LoginServices {
  /// Performs the login's work, sending what came of it.
  @Sendable func perform(_ work: Login.Work, _ send: Send<Login.Event>) async throws {
    switch work {
    case .authenticate(let username, let password): send(try await authenticate(username, password) ? .authenticated : .authenticationFailed)
    }
  }
}
