/// An effect a table emits for a ``Store`` to perform: the user's own work, or a built-in
/// timer or cancellation. Use it as the table's `Effect` type.
///
/// ```swift
/// typealias Effect = Command<LoaderEvent, LoaderWork>
/// .transition(from: .idle, on: .load, to: .loading, effects: .perform(.fetch, id: "fetch", scope: .state))
/// .transition(from: .counting, on: .start, to: .counting, effects: .every(.seconds(1), send: .tick, id: "ticker"))
/// .transition(from: .failure, on: .retry, to: .waiting, effects: .send(.retryNow, after: .seconds(2)))
/// ```
///
/// Not frozen: a minor release may add cases. Switch over it with `@unknown default` (a new
/// case is then a warning, not a build error).
public enum Command<Event: Sendable, Work: Sendable>: Sendable {
  /// Hand `work` to the store's effect handler. Its results come back as events.
  case perform(Work, id: EffectID? = nil, scope: EffectScope = .global)
  /// Send `event` to the machine after `delay` of the store's clock.
  ///
  /// (This case and `every` are kept out of line, `indirect`: they are the largest, and the
  /// size of a command is the size of every step's outcome, which a store copies and destroys
  /// on every send, effects or not. Inline, a command was 42 bytes and a table store's plain
  /// send 14% slower. A timer allocates when it starts anyway.)
  indirect case send(Event, after: Duration, id: EffectID? = nil, scope: EffectScope = .global)
  /// Send `event` every `interval`, first after one interval, until cancelled.
  indirect case every(Duration, send: Event, id: EffectID, scope: EffectScope = .global)
  /// Cancel the running effect, timer or child machine named `id`; a result it produces later is
  /// dropped.
  case cancel(EffectID)
  /// Run `child` as a child machine named `id` (see ``ChildMachine``). With the state scope (the
  /// default: SCXML's `<invoke>`) it runs while the state that started it is active; with the
  /// global scope (XState's `spawn`) until it is done, cancelled by id, or the store finishes.
  /// A child with the id of a running one replaces it.
  ///
  /// (Out of line, as the timers: a child's start allocates its store anyway.)
  indirect case invoke(ChildMachine<Event>, id: EffectID, scope: EffectScope = .state)
  /// Send a message to a running child machine, by its id or path. It ends finished when the
  /// child accepted it, failed when there is no such child or it refused the message (the
  /// reason is the failure's error).
  ///
  /// A delayed message (``MachineMessage/init(_:to:after:id:)``) waits on the store's clock
  /// as a timer does, cancellable by its id, and is delivered when it is due.
  ///
  /// Messages are delivered at once, so machines that message each other back and forth would
  /// step forever inside one `send`: a store refuses a message (and a child's start) as
  /// ``SendRejection/loop`` when its last 10,000 steps were all of events its children said
  /// while it messaged or started them. Any event from outside ends such a cascade.
  case message(MachineMessage)
}

extension Command: CustomStringConvertible {
  /// How tables and diagrams name the command: `fetch`, `after 1 s: timeout`,
  /// `every 1 s: tick`, `cancel ticker`, `invoke upload as file-1`, `send pause to file-1`; a state scope is marked `(in state)`.
  public var description: String {
    switch self {
    case .perform(let work, _, let scope): "\(work)" + Self.mark(scope)
    case .send(let event, let delay, _, let scope): "after \(Self.format(delay)): \(event)" + Self.mark(scope)
    case .every(let interval, let event, _, let scope): "every \(Self.format(interval)): \(event)" + Self.mark(scope)
    case .cancel(let id): "cancel \(id)"
    case .invoke(let child, let id, let scope): ChildLabel(machine: child.name, id: id, scope: scope).description
    case .message(let message):
      (message.isDelayed ? "after \(Self.format(message.delay)): " : "") + "send \(message.text) to \(message.target)"
    }
  }

  static func mark(_ scope: EffectScope) -> String { scope == .state ? " (in state)" : "" }

  static func format(_ duration: Duration) -> String {
    if duration.components.attoseconds == 0 { return "\(duration.components.seconds) s" }
    let milliseconds = duration.inSeconds * 1000
    return milliseconds.rounded() == milliseconds ? "\(Int(milliseconds)) ms" : "\(milliseconds) ms"
  }
}

/// What a store reads of a command it runs.
extension Command {
  /// Whether it hands work to the handler.
  @inlinable
  var isPerform: Bool { if case .perform = self { true } else { false } }

  /// The scope of a command that runs (a cancel has none: global).
  @inlinable
  var scope: EffectScope {
    switch self {
    case .perform(_, _, let scope), .send(_, _, _, let scope), .every(_, _, _, let scope), .invoke(_, _, let scope): scope
    case .cancel, .message: .global
    }
  }

  /// The id a command that runs is known by (a delayed message's; a cancel names another's).
  @inlinable
  var runningID: EffectID? {
    switch self {
    case .perform(_, let id, _), .send(_, _, let id, _): id
    case .every(_, _, let id, _), .invoke(_, let id, _): id
    case .message(let message): message.id
    case .cancel: nil
    }
  }
}

extension Command: Equatable where Event: Equatable, Work: Equatable {}
extension Command: Hashable where Event: Hashable, Work: Hashable {}

