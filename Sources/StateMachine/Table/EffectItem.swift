/// One effect a row (or a state's entry or exit) emits: a fixed value, or one made from the
/// context and the event under a printable name.
///
/// Fixed values are rendered with `String(describing:)`; made effects by their name.
public struct EffectItem<Context, Event, Effect>: Sendable where Effect: Sendable {
  @usableFromInline
  enum Kind: Sendable {
    case value(Effect)
    case make(String, @Sendable (Context, Event) -> Effect?)
  }
  @usableFromInline
  let kind: Kind

  /// A fixed effect value.
  public static func value(_ effect: Effect) -> EffectItem { EffectItem(kind: .value(effect)) }

  /// An effect made from the context (after the row's update) and the event; `nil` emits nothing.
  ///
  /// ```swift
  /// .make("authenticate") { context, _ in .authenticate(context.username, context.password) }
  /// ```
  public static func make(
    _ name: String, _ build: @escaping @Sendable (Context, Event) -> Effect?
  ) -> EffectItem {
    EffectItem(kind: .make(name, build))
  }

  /// The printable name of the effect.
  public var name: String {
    switch kind {
    case .value(let effect): String(describing: effect)
    case .make(let name, _): name
    }
  }

  /// The effect it emits for `context` and `event` (`nil`: a made one that emits nothing).
  @inlinable
  func effect(_ context: Context, _ event: Event) -> Effect? {
    switch kind {
    case .value(let effect): effect
    case .make(_, let build): build(context, event)
    }
  }

  /// The closure of a made effect.
  var maker: (@Sendable (Context, Event) -> Effect?)? {
    if case .make(_, let build) = kind { build } else { nil }
  }

  @usableFromInline
  var fixedValue: Effect? {
    if case .value(let effect) = kind { effect } else { nil }
  }
}
