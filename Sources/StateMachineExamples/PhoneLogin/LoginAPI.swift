public import Foundation

/// The logged-in user, as the login API returns it.
public struct User: Hashable, Sendable, Codable {
  public var id: Int
  public var name: String
  public var phone: String

  public init(id: Int, name: String, phone: String) {
    (self.id, self.name, self.phone) = (id, name, phone)
  }
}

/// The envelope of every response of the login API: `{"code": 0, "message": "...", "data": ...}`.
/// `code` 0 means success; any other code is a failure explained by `message`.
public struct APIResponse<Payload: Decodable & Sendable>: Decodable, Sendable {
  public var code: Int
  public var message: String?
  public var data: Payload?

  /// The outcome a response means: the payload on code 0, else the server's message.
  /// A body that is not such an envelope is ``APIResponseError/unreadable``.
  public static func decode(_ body: Data) -> Result<Payload, APIResponseError> {
    guard let response = try? JSONDecoder().decode(APIResponse<Payload>.self, from: body) else {
      return .failure(.unreadable)
    }
    guard response.code == 0 else { return .failure(.server(response.message ?? "error \(response.code)")) }
    guard let payload = response.data else { return .failure(.unreadable) }
    return .success(payload)
  }
}

/// Why a login API response is not a success.
public enum APIResponseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A non-zero code, with the server's message.
  case server(String)
  /// The body is not a `{code, message, data}` envelope of the expected payload.
  case unreadable

  /// The message the user sees.
  public var description: String {
    switch self {
    case .server(let message): message
    case .unreadable: "unreadable response"
    }
  }
}
