/// An event of a chart whose content a datamodel runs: its name, as transitions match it, and
/// what SCXML's `_event` holds beside it (the recommendation's section 5.10.1).
///
/// Not API yet: the SCXML runtime of `fsm run` and `fsm conform` makes and reads them.
package struct SCXMLEvent: Hashable, Sendable, CustomStringConvertible {
  /// Where the event came from: `platform` (done and error events), `internal` (`<raise>`,
  /// `<send target="#_internal">`) or `external`.
  package enum Kind: String, Hashable, Sendable {
    case platform, `internal`, external
  }

  package var name: String
  package var type: Kind
  /// The id of the `<send>` that sent it, when it had one.
  package var sendid: String?
  /// Where a reply goes (`#_scxml_<sessionid>`, `#_<invokeid>`), for an event sent by a chart.
  package var origin: String?
  package var origintype: String?
  /// The invocation that sent it, for an event from an invoked chart.
  package var invokeid: String?
  /// Its data as JSON text; `nil`: none (`undefined`).
  package var data: String?
  /// Where a delayed send goes when it falls due: another chart (`#_parent`, `#_<invokeid>`);
  /// `nil`: the session that sent it. Not one of `_event`'s fields.
  package var target: String?

  package init(
    _ name: String, type: Kind = .external, sendid: String? = nil, origin: String? = nil, origintype: String? = nil,
    invokeid: String? = nil, data: String? = nil
  ) {
    (self.name, self.type, self.sendid, self.origin, self.origintype, self.invokeid, self.data) =
      (name, type, sendid, origin, origintype, invokeid, data)
  }

  /// The name: what a trace and a configuration's step show.
  package var description: String { name }

  /// The type SCXML's own event I/O processor is named by.
  package static let scxmlProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"
}
