public import Foundation
public import StateMachine

/// What the phone login needs from the outside world.
public struct PhoneLoginServices: Sendable {
  /// Sends verification codes.
  public var codes: CodeService
  /// Calls the login API and returns the response body.
  public var login: @Sendable (_ phone: String, _ code: String) async throws -> Data

  public init(
    codes: CodeService,
    login: @escaping @Sendable (_ phone: String, _ code: String) async throws -> Data
  ) {
    (self.codes, self.login) = (codes, login)
  }

  /// Fakes on `clock`: codes arrive after 1 s; the API answers after 1 s, accepting the code
  /// `123456`, refusing any other with "wrong verification code", and answering the number in
  /// `brokenPhone` with a body that is not JSON.
  public static func fake(clock: any Clock<Duration>, brokenPhone: String = "19900000000")
    -> PhoneLoginServices
  {
    PhoneLoginServices(codes: .fake(clock: clock)) { phone, code in
      try await clock.sleep(for: .seconds(1))
      if phone == brokenPhone { return Data("<html>502 Bad Gateway</html>".utf8) }
      if code == "123456" {
        return Data(
          #"{"code":0,"message":"ok","data":{"id":7,"name":"Li Lei","phone":"\#(phone)"}}"#.utf8)
      }
      return Data(#"{"code":-1,"message":"wrong verification code","data":null}"#.utf8)
    }
  }
}

extension PhoneLogin {
  /// A store running ``chart``.
  public typealias Runtime = Store<Chart<State, Event, Context, Effect>>

  /// A store running the phone login with `services`.
  public static func store(services: PhoneLoginServices, clock: any Clock<Duration>, context: Context = Context(), inspector: Runtime.Inspector? = nil) -> Runtime {
    shippedChartStore { () throws(ChartRunError) in
      try Runtime(chart, context: context, clock: clock, handler: services.perform, failure: PhoneLoginServices.failure, inspector: inspector)
    }
  }
}

extension PhoneLoginServices {
  /// Performs the phone login's work, sending what came of it.
  @Sendable func perform(_ work: PhoneLogin.Work, _ send: Send<PhoneLogin.Event>) async throws {
    switch work {
    case .requestCode(let phone):
      try await codes.requestCode(phone)
      send(.codeSent)
    case .login(let phone, let code):
      switch APIResponse<User>.decode(try await login(phone, code)) {
      case .success(let user): send(.loginSucceeded(user))
      case .failure(let error): send(.loginFailed(error.description))
      }
    }
  }

  /// What a failed request or login sends.
  @Sendable static func failure(_ work: PhoneLogin.Work, _ error: any Error) -> PhoneLogin.Event? {
    switch work {
    case .requestCode: .codeRequestFailed(ServiceError.message(of: error, otherwise: "could not send the code"))
    case .login: .loginFailed("the login service is unreachable")
    }
  }
}
