import Foundation
import StateMachine

/// One SCION-style test: `NAME.scxml` and its trace `NAME.json` beside it.
struct ConformanceTest {
  let name: String
  let chartPath: String
  let tracePath: String

  /// What running it found.
  enum Result: Equatable {
    case pass
    case fail(String)
    case unsupported(String)
    /// The test itself is not valid input (its trace asks for something impossible).
    case invalid(String)
  }

  /// The longest `after` a trace may ask for, in milliseconds: a year.
  static let maxAfter: Double = 365 * 24 * 3600 * 1000

  typealias Trace = ConformanceTrace

  /// Every `.scxml` with a `.json` beside it under `paths` (files or folders, searched
  /// recursively), sorted by path; `missing` lists paths that do not exist.
  static func find(_ paths: [String]) -> (tests: [ConformanceTest], missing: [String]) {
    var tests: [ConformanceTest] = []
    var missing: [String] = []
    let manager = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        missing.append(path)
        continue
      }
      let files: [String] =
        isDirectory.boolValue
        ? (manager.enumerator(atPath: path)?.compactMap { $0 as? String }.map { path + "/" + $0 } ?? []) : [path]
      for file in files where file.hasSuffix(".scxml") {
        let stem = String(file.dropLast(".scxml".count))
        guard manager.fileExists(atPath: stem + ".json") else { continue }
        let base = isDirectory.boolValue ? String(stem.dropFirst(path.count)).drop { $0 == "/" } : Substring(stem)
        tests.append(ConformanceTest(name: String(base), chartPath: file, tracePath: stem + ".json"))
      }
    }
    return (tests.sorted { $0.chartPath < $1.chartPath }, missing)
  }

  /// The longest a test without events may wait on its clock for the chart to halt: an hour
  /// of virtual time.
  static let maxWait: Duration = .seconds(3600)

  /// Runs the test: the full set of active atomic states after the first macrostep and after
  /// each event, as sorted sets. A document that needs the ECMAScript datamodel runs on it when
  /// there is one (``FSM/ecmascript``); a test without events then waits on its clock until the
  /// chart halts or nothing is pending (how a W3C test passes).
  func run() -> Result {
    let trace: Trace
    do {
      trace = try JSONDecoder().decode(Trace.self, from: Data(contentsOf: URL(fileURLWithPath: tracePath)))
    } catch {
      return .fail("cannot read the trace: \(error)")
    }
    switch DocumentLoad.read(chartPath) {
    case .plain(let chart):
      var driver = DocumentDriver(chart)
      return check(&driver, trace)
    case .scripted(let chart, let make):
      var driver = ChartDriver<SCXMLEvent, SCXMLSession>(chart, datamodel: make)
      return check(&driver, trace, waits: trace.events.isEmpty)
    case .refused(let error, let needsTrait):
      guard error.kind == .needsDatamodel else { return .fail("cannot read the chart: \(error)") }
      let places = error.problems.map(\.description).joined(separator: "; ")
      return .unsupported(places + (needsTrait ? "; " + FSM.enableECMAScript : " (not supported yet)"))
    }
  }

  /// Steps `driver` through `trace`; with `waits`, the clock runs after the start until the
  /// chart halts or nothing is pending.
  func check<Event, Context>(_ driver: inout ChartDriver<Event, Context>, _ trace: Trace, waits: Bool = false) -> Result {
    do {
      try driver.start()
      if waits {
        try driver.drain()
        while !driver.isHalted, let due = driver.nextDue, due <= Self.maxWait { try driver.advance(by: due - driver.now) }
      }
      if driver.configuration != trace.initialConfiguration.sorted() {
        return .fail("initial configuration: expected \(Self.show(trace.initialConfiguration)), got \(Self.show(driver.configuration))")
      }
      for (n, step) in trace.events.enumerated() {
        try driver.drain()
        if let after = step.after {
          guard after.isFinite, after >= 0, after <= Self.maxAfter else {
            return .invalid("\(tracePath): event \(n + 1): after \(after); expected milliseconds from 0 to \(Int(Self.maxAfter))")
          }
          try driver.advance(by: .milliseconds(after))
        }
        try driver.send(step.event.name)
        if driver.configuration != step.nextConfiguration.sorted() {
          return .fail(
            "event \(n + 1) '\(step.event.name)': expected \(Self.show(step.nextConfiguration)), got \(Self.show(driver.configuration))")
        }
      }
    } catch {
      return .fail(error.description)
    }
    return .pass
  }

  static func show(_ states: [String]) -> String { "[" + states.sorted().joined(separator: ", ") + "]" }
}

/// A SCION-style trace (`NAME.json` beside `NAME.scxml`): the configuration after the chart's
/// first macrostep, then each event (after `after` milliseconds of the clock, when given) and
/// the configuration it leaves. (Package: the tests run the suites through a store with it.)
package struct ConformanceTrace: Decodable {
  package struct Step: Decodable {
    package struct Event: Decodable { package let name: String }
    package let event: Event
    package let nextConfiguration: [String]
    package let after: Double?
  }
  package let initialConfiguration: [String]
  package let events: [Step]
}
