import Foundation

/// How a child machine ended, as its parent's log records it: a line after the child's last
/// step, `{"child":"uploads/a.jpg","ended":"cancelled"}`. Each child ends exactly once: finished
/// (done), cancelled (its state left, cancelled by id or replaced, its parent finishing) or
/// failed (it could not start), as its parent's inspector reports the effect that started it.
///
/// A child's end travels up to the store that records, as its steps do (a ``ChildStep`` that
/// carries it, which no inspector of a user's is shown).
@usableFromInline
struct ChildEnd: Sendable, Hashable, Encodable {
  /// How it ended.
  @usableFromInline
  enum How: String, Sendable, CaseIterable, Encodable {
    case finished, cancelled, failed
  }

  @usableFromInline let how: How
  /// Why it failed (a failed start's error).
  @usableFromInline let error: String?

  @usableFromInline
  init(_ how: How, error: String? = nil) { (self.how, self.error) = (how, error) }

  /// As a line keeps it: `{"ended":"failed","error":"…"}` (no `error` but a failure's).
  enum CodingKeys: String, CodingKey {
    case how = "ended", error
  }

  /// The line's fields after the path, as an object, encoded as a log encodes (keys sorted), as
  /// ``ChildLogBody/line(path:fields:)`` takes them.
  var fields: [UInt8] { Array((try? AnyJSON.encoder.encode(self)) ?? Data(#"{"ended":"\#(how.rawValue)"}"#.utf8)) }
}
