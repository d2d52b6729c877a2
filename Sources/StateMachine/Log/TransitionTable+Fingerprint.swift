extension TransitionTable {
  /// A fingerprint of the table's declared behaviour: 16 hex digits of FNV-1a over its Markdown
  /// rendering (states, entry and exit effects, rows with guard and effect names, policy). A log
  /// records it, so replaying against a changed table is detected.
  public var fingerprint: String { fingerprintHex(of: markdown()) }
}

/// 16 hex digits of FNV-1a over `text`'s UTF-8.
func fingerprintHex(of text: String) -> String {
  var hash: UInt64 = 0xCBF2_9CE4_8422_2325
  for byte in text.utf8 {
    hash ^= UInt64(byte)
    hash = hash &* 0x0000_0100_0000_01B3
  }
  let hex = String(hash, radix: 16)
  return String(repeating: "0", count: 16 - hex.count) + hex
}
