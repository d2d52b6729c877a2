/// Where the first byte of `bytes` that is not part of valid UTF-8 is: its offset (from 0) and
/// its line (from 1); `nil` when every byte is. Readers of text files check this before
/// decoding, so a bad byte is reported where it is instead of becoming U+FFFD.
func invalidUTF8<Bytes: Collection<UInt8>>(in bytes: Bytes) -> (offset: Int, line: Int)? {
  var iterator = bytes.makeIterator()
  var parser = Unicode.UTF8.ForwardParser()
  var offset = 0
  while true {
    switch parser.parseScalar(from: &iterator) {
    case .valid(let scalar): offset += scalar.count
    case .emptyInput: return nil
    case .error: return (offset, lineNumber(at: offset, in: bytes))
    }
  }
}

/// The line (from 1) the byte at `offset` is on.
func lineNumber<Bytes: Collection<UInt8>>(at offset: Int, in bytes: Bytes) -> Int {
  1 + bytes.prefix(offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
}
