import Foundation
@testable import StateMachine
import Testing

/// The hand-written entry writer writes exactly the bytes `JSONEncoder` writes for the whole
/// entry, for every kind of value: plain small values (remembered by their bytes), `Hashable`
/// values with strings (remembered by value), values that are neither (encoded each time).
@Suite("Log line writer")
struct LogLineWriterTests {
  enum Light: String, Codable, Hashable { case red, green }
  enum Input: Codable, Hashable { case tap, type(String), move(x: Int, y: Double) }
  struct Form: Codable { var text: String; var count: Int; var tags: [String: Int] }  // not Hashable
  struct Big: Codable, Hashable { var a: Int, b: Int, c: Int }  // plain, but more than 8 bytes

  struct Case: Sendable, CustomStringConvertible {
    let description: String
    let time: Double?
  }

  static let times: [Case] = [
    .init(description: "no time", time: nil), .init(description: "zero", time: 0), .init(description: "a half", time: 0.5),
    .init(description: "whole", time: 42), .init(description: "negative", time: -3.25), .init(description: "tiny", time: 1e-7),
    .init(description: "huge", time: 1e21), .init(description: "third", time: 1.0 / 3), .init(description: "minus zero", time: -0.0),
  ]

  @Test("entries written by hand are byte for byte what JSONEncoder writes", arguments: times)
  func sameBytes(_ example: Case) throws {
    typealias Entry = LogEntry<Light, Input, Form, Big>
    var writer = LogLineWriter<Light, Input, Form, Big>()
    let inputs: [Input] = [.tap, .type("héllo \"quoted\" / slash\n"), .move(x: -1, y: 2.5), .tap, .type("héllo \"quoted\" / slash\n")]
    let outcomes: [LoggedOutcome] = [.transitioned, .stayed, .ignored, .rejected(.guardsFailed), .rejected(.undeclared)]
    for (i, input) in inputs.enumerated() {
      let entry = Entry(
        sequence: i + 1, time: example.time, event: input, outcome: outcomes[i], state: i % 2 == 0 ? .red : .green,
        context: Form(text: "t\(i % 2)", count: i, tags: ["b": 2, "a": 1]),
        effects: Array(repeating: Big(a: i, b: 2, c: 3), count: i % 3))
      var bytes: [UInt8] = []
      try writer.append(entry, to: &bytes)
      #expect(bytes == Array(try EventLog<Light, Input, Form, Big>.line(entry)), "entry \(i + 1)")
    }
  }

  @Test("a chart's states through the specialised cache are byte for byte what JSONEncoder writes, repeated or not")
  func chartStatesSpecialised() throws {
    typealias State = ChartLogState<String>
    let states: [State] = [
      State(configuration: ["a", "b/\"x\""]), State(configuration: ["a", "b/\"x\""]),
      State(configuration: ["c"], history: ["h": ["a", "b"]]), State(configuration: ["c"], history: ["h": ["a", "b"]], isHalted: true),
      State(configuration: ["a", "b/\"x\""]), State(configuration: []),
    ]
    var log = EventLog<State, Light, NoContext, Big>(header: .init(machine: "m", fingerprint: "f", state: states[0], context: NoContext()))
    var writer = LogLineWriter<State, Light, NoContext, Big>(states: .hashing())
    for (i, state) in states.enumerated() {
      let entry = LogEntry<State, Light, NoContext, Big>(
        sequence: i + 1, time: nil, event: .red, outcome: .transitioned, state: state, context: NoContext(), effects: [])
      var bytes: [UInt8] = []
      try writer.append(entry, to: &bytes)
      #expect(bytes == Array(try EventLog<State, Light, NoContext, Big>.line(entry)), "entry \(i + 1)")
      log.entries.append(entry)
    }
    var expected = Array(try EventLog<State, Light, NoContext, Big>.line(log.header))
    for entry in log.entries { expected += Array(try EventLog<State, Light, NoContext, Big>.line(entry)) }
    #expect(Array(try log.encoded()) == expected)
  }

  @Test("a log written with the writer reads back the same entries")
  func roundTrip() throws {
    var log = EventLog<Light, Input, NoContext, Big>(header: .init(machine: "m", fingerprint: "f", state: .red, context: NoContext()))
    for i in 1...50 {
      log.entries.append(.init(
        sequence: i, time: Double(i) / 4, event: i % 2 == 0 ? .tap : .type("\(i % 5)"), outcome: .transitioned,
        state: i % 3 == 0 ? .green : .red, context: NoContext(), effects: [Big(a: i % 4, b: 0, c: 0)]))
    }
    let read = EventLog<Light, Input, NoContext, Big>.read(try log.encoded())
    #expect(read.error == nil)
    #expect(read.log?.entries.map(\.event) == log.entries.map(\.event))
    #expect(read.log?.entries.map(\.time) == log.entries.map(\.time))
    #expect(read.log?.entries.map(\.effects) == log.entries.map(\.effects))
  }
}

/// Entries whose values were read before skip the strict JSON check; a line that only looks
/// like them still gets the error the strict reader gives.
@Suite("Log reader: the known-values fast path")
struct KnownEntryReaderTests {
  typealias Log = EventLog<LogLineWriterTests.Light, LogLineWriterTests.Input, NoContext, LogLineWriterTests.Big>

  struct Mutation: Sendable, CustomStringConvertible {
    let description: String
    let line: String
  }

  static let valid = #"{"context":{},"effects":[],"event":{"tap":{}},"outcome":"stayed","sequence":SEQ,"state":"red","time":0.5}"#

  static let mutations: [Mutation] = [
    .init(description: "duplicate key", line: #"{"context":{},"effects":[],"event":{"tap":{}},"outcome":"stayed","sequence":SEQ,"state":"red","state":"red"}"#),
    .init(description: "unknown key with bad JSON", line: #"{"context":{},"effects":[],"event":{"tap":{}},"junk":[1,,2],"outcome":"stayed","sequence":SEQ,"state":"red"}"#),
    .init(description: "plus sign", line: #"{"context":{},"effects":[],"event":{"tap":{}},"outcome":"stayed","sequence":+SEQ,"state":"red"}"#),
    .init(description: "leading zero time", line: #"{"context":{},"effects":[],"event":{"tap":{}},"outcome":"stayed","sequence":SEQ,"state":"red","time":01}"#),
    .init(description: "hex time", line: #"{"context":{},"effects":[],"event":{"tap":{}},"outcome":"stayed","sequence":SEQ,"state":"red","time":0x1p3}"#),
    .init(description: "escaped key", line: #"{"context":{},"effects":[],"event":{"tap":{}},"outcome":"stayed","sequence":SEQ,"st\u0061te":"red"}"#),
    .init(description: "missing state", line: #"{"context":{},"effects":[],"event":{"tap":{}},"outcome":"stayed","sequence":SEQ}"#),
    .init(description: "trailing comma", line: #"{"context":{},"effects":[],"event":{"tap":{}},"outcome":"stayed","sequence":SEQ,"state":"red",}"#),
  ]

  static func header() throws -> String {
    String(decoding: try Log.line(LogHeader<LogLineWriterTests.Light, NoContext>(machine: "m", fingerprint: "f", state: .red, context: NoContext())), as: UTF8.self)
  }

  @Test("a line that only looks like known entries gets the strict reader's error", arguments: mutations)
  func sameError(_ mutation: Mutation) throws {
    let cold = try Self.header() + mutation.line.replacingOccurrences(of: "SEQ", with: "1") + "\n"
    let warm = try Self.header() + Self.valid.replacingOccurrences(of: "SEQ", with: "1") + "\n"
      + Self.valid.replacingOccurrences(of: "SEQ", with: "2") + "\n" + mutation.line.replacingOccurrences(of: "SEQ", with: "3") + "\n"
    let expected = try #require(Log.read(Data(cold.utf8)).error)
    let found = try #require(Log.read(Data(warm.utf8)).error)
    #expect("\(found)" == "\(expected)".replacingOccurrences(of: "line 2", with: "line 4"))
  }

  @Test("known entries read through the fast path are the entries written")
  func known() throws {
    let text = try Self.header() + (1...5).map { Self.valid.replacingOccurrences(of: "SEQ", with: "\($0)") + "\n" }.joined()
    let log = try #require(Log.read(Data(text.utf8)).log)
    #expect(log.entries.map(\.sequence) == [1, 2, 3, 4, 5])
    #expect(log.entries.allSatisfy { $0.event == .tap && $0.state == .red && $0.time == 0.5 && $0.outcome == .stayed })
  }
}

@Suite("Log line writer: integers")
struct LogIntegerTests {
  @Test("integers are written as Swift prints them", arguments: [0, 7, 9, 10, 99, 100, 12_345, -1, -10, Int.max, Int.min])
  func integer(_ value: Int) {
    var out: [UInt8] = []
    LogLineWriter<String, String, NoContext, String>.appendInteger(value, to: &out)
    #expect(String(decoding: out, as: UTF8.self) == String(value))
  }
}
