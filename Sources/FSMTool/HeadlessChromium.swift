import Foundation

/// Headless Chromium, which opens `fsm view`'s pages in a real browser: for the page tests (CI
/// installs it; a machine without it skips them, unless `CI` is set, where they fail) and the
/// `view` benchmark.
package enum HeadlessChromium {
  /// The browser's path, if one is installed.
  package static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/snap/bin/chromium"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// Whether the browser tests run: a browser is installed, or this is CI (which must have one).
  package static var runs: Bool { path != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

  package struct Missing: Error, CustomStringConvertible {
    package var description: String { "headless Chromium is not installed (apt-get install chromium)" }
  }

  /// The DOM of the page at `url` once its scripts ran (`--dump-dom`).
  package static func dom(_ url: String) throws -> String {
    guard let path else { throw Missing() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--dump-dom", url]
    let output = Pipe()
    (process.standardOutput, process.standardError) = (output, FileHandle.nullDevice)
    try process.run()
    // A browser that hangs is ended: the caller then gets an empty DOM, never waits forever.
    let watchdog = DispatchWorkItem { process.terminate() }
    DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    return String(decoding: data, as: UTF8.self)
  }

  /// The text of the element with `id` in `dom` (its tags dropped, entities read).
  package static func text(of id: String, in dom: String) -> String? {
    guard let open = dom.range(of: "id=\"\(id)\""), let start = dom[open.upperBound...].firstIndex(of: ">") else { return nil }
    let rest = dom[dom.index(after: start)...]
    guard let close = rest.range(of: "</") else { return nil }
    var text = String(rest[..<close.lowerBound])
    for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
      text = text.replacingOccurrences(of: entity, with: character)
    }
    return text
  }

  /// How long the session page in `dom` took to open at its step, as it says itself (the
  /// data read, the diagram lit, the step shown: `data-shown-ms` on its body), in milliseconds.
  package static func shownMilliseconds(in dom: String) -> Double? {
    dom.range(of: "data-shown-ms=\"").flatMap { Double(dom[$0.upperBound...].prefix { $0 != "\"" }) }
  }
}
