public import StateMachine

/// The service that sends verification codes.
public struct CodeService: Sendable {
  /// Sends a code to `phone`; throws when it cannot.
  public var requestCode: @Sendable (_ phone: String) async throws -> Void

  public init(requestCode: @escaping @Sendable (_ phone: String) async throws -> Void) {
    self.requestCode = requestCode
  }

  /// Sends a code after 1 s of `clock` time, except to numbers in `unreachable`, which fail
  /// with "could not send the code".
  public static func fake(clock: any Clock<Duration>, unreachable: Set<String> = []) -> CodeService {
    CodeService { phone in
      try await clock.sleep(for: .seconds(1))
      if unreachable.contains(phone) { throw ServiceError(message: "could not send the code") }
    }
  }
}

/// A refusal of one of the example services (code service, registrar), with the message the
/// user sees.
public struct ServiceError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(message: String) { self.message = message }
  public var description: String { message }

  /// The message of `error` when it is a `ServiceError`, else `otherwise`.
  public static func message(of error: any Error, otherwise: String) -> String {
    (error as? ServiceError)?.message ?? otherwise
  }
}

extension Captcha {
  /// A store running ``table``.
  public typealias Runtime = Store<TransitionTable<State, Event, Context, Effect>>

  /// A store running the captcha button with `codes` sending the codes.
  public static func store(codes: CodeService, clock: any Clock<Duration>, context: Context = Context(), inspector: Runtime.Inspector? = nil) -> Runtime {
    Runtime(table, context: context, clock: clock, handler: codes.perform, failure: CodeService.failure, inspector: inspector)
  }
}

extension CodeService {
  /// Performs the captcha's work, sending what came of it.
  @Sendable func perform(_ work: Captcha.Work, _ send: Send<Captcha.Event>) async throws {
    switch work {
    case .requestCode(let phone):
      try await requestCode(phone)
      send(.codeSent)
    }
  }

  /// What a failed request sends.
  @Sendable static func failure(_ work: Captcha.Work, _ error: any Error) -> Captcha.Event? {
    .requestFailed(ServiceError.message(of: error, otherwise: "could not send the code"))
  }
}
