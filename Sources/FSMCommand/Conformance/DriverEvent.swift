import StateMachine

/// An event the driver can make: one from outside (a trace's), a platform event (an invoked
/// chart's `done.invoke.<id>`, `error.communication`), and one an invoked chart sent its parent.
protocol DriverEvent: Sendable {
  static func external(_ name: String) -> Self
  static func platform(_ name: String, invokeid: String?, data: String?) -> Self
  func sent(byInvocation id: String) -> Self
  /// Where a delayed send goes when it falls due (`nil`: the session that sent it).
  var deliveryTarget: String? { get }
  /// The event as its target receives it.
  var delivered: Self { get }
  /// The invocation that sent it (an invoked chart's event, or its `done.invoke.<id>`).
  var invokeID: String? { get }
}

extension String: DriverEvent {
  static func external(_ name: String) -> String { name }
  static func platform(_ name: String, invokeid: String?, data: String?) -> String { name }
  func sent(byInvocation id: String) -> String { self }
  var deliveryTarget: String? { nil }
  var delivered: String { self }
  var invokeID: String? { nil }
}

extension SCXMLEvent: DriverEvent {
  static func external(_ name: String) -> SCXMLEvent { SCXMLEvent(name) }
  static func platform(_ name: String, invokeid: String?, data: String?) -> SCXMLEvent {
    SCXMLEvent(name, type: .platform, invokeid: invokeid, data: data)
  }
  func sent(byInvocation id: String) -> SCXMLEvent {
    var event = self
    event.invokeid = id
    return event
  }
  var deliveryTarget: String? { target }
  var delivered: SCXMLEvent {
    var event = self
    event.target = nil
    return event
  }
  var invokeID: String? { invokeid }
}
