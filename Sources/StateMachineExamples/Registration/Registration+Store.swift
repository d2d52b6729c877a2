public import StateMachine

/// The service that creates accounts.
public struct Registrar: Sendable {
  /// Creates the account; throws a ``ServiceError`` when it cannot.
  public var register: @Sendable (_ username: String, _ password: String) async throws -> Void

  public init(register: @escaping @Sendable (_ username: String, _ password: String) async throws -> Void) {
    self.register = register
  }

  /// Accepts any username not in `taken` after 1 s of `clock` time.
  public static func fake(clock: any Clock<Duration>, taken: Set<String> = ["admin"]) -> Registrar {
    Registrar { username, _ in
      try await clock.sleep(for: .seconds(1))
      if taken.contains(username) { throw ServiceError(message: "the username '\(username)' is taken") }
    }
  }
}

extension Registration {
  /// A store running ``table``.
  public typealias Runtime = Store<TransitionTable<State, Event, Context, Effect>>

  /// A store running the registration form with `registrar`.
  public static func store(registrar: Registrar, clock: any Clock<Duration>, context: Context = Context(), inspector: Runtime.Inspector? = nil) -> Runtime {
    Runtime(table, context: context, clock: clock, handler: registrar.perform, failure: Registrar.failure, inspector: inspector)
  }
}

extension Registrar {
  /// Performs the registration's work, sending what came of it.
  @Sendable func perform(_ work: Registration.Work, _ send: Send<Registration.Event>) async throws {
    switch work {
    case .register(let username, let password):
      try await register(username, password)
      send(.registered)
    }
  }

  /// What a failed registration sends.
  @Sendable static func failure(_ work: Registration.Work, _ error: any Error) -> Registration.Event? {
    .registrationFailed(ServiceError.message(of: error, otherwise: "registration failed"))
  }
}
