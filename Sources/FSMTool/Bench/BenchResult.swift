import FSMCommand
/// One measured variant of one workload.
struct BenchResult: Sendable, Equatable, Encodable {
  var workload: String
  var variant: String
  /// Median over the repetitions.
  var nsPerEvent: Double
  /// `nsPerEvent` divided by the `switch` variant's of the same workload.
  var ratioToSwitch: Double
  var events: Int
  var repetitions: Int
  /// Every repetition, in run order, for the reader who wants the spread.
  var samples: [Double]
  /// Extra figures (e.g. bytes per machine instance).
  var notes: [String: Double] = [:]

  /// The JSON keys `fsm bench --json` prints.
  enum CodingKeys: String, CodingKey {
    case workload, variant, events, repetitions, notes
    case nsPerEvent = "ns_per_event"
    case ratioToSwitch = "ratio_to_switch"
    case samples = "samples_ns_per_event"
  }
}

/// A variant: a name and a closure that runs the whole workload once and returns a checksum,
/// so the optimiser cannot drop the work and variants can be checked against each other.
struct BenchVariant {
  var name: String
  var run: () -> Int
}

extension BenchVariant {
  /// A log's replay, a table's or a chart's alike: `replay` reads the log and replays it,
  /// giving its entries and whether the replay was identical (`nil`: it did not read whole);
  /// the checksum is the entry count, or -1.
  static func replay(_ name: String, _ replay: @escaping () -> (entries: Int, identical: Bool)?) -> BenchVariant {
    BenchVariant(name: name) {
      guard let replayed = replay(), replayed.identical else { return -1 }
      return replayed.entries
    }
  }
}

/// A workload: variants that must agree on their checksum, measured interleaved.
struct BenchWorkload {
  var name: String
  var events: Int
  var variants: [BenchVariant]
  var notes: [String: Double] = [:]
  /// Runs once the measuring ends: more notes, from what the variants saw (and it may clean up
  /// what the workload made).
  var finish: (() -> [String: Double])?
}

enum BenchError: Error, CustomStringConvertible {
  case checksumMismatch(workload: String, variant: String, expected: Int, got: Int)
  var description: String {
    switch self {
    case .checksumMismatch(let workload, let variant, let expected, let got):
      "\(workload)/\(variant): checksum \(got) differs from the first variant's \(expected): the variants do not compute the same thing"
    }
  }
}

extension BenchWorkload {
  /// Keeps the baseline (the `switch` variant, else the first) and the variants whose name
  /// contains `text`.
  mutating func keepVariants(containing text: String) {
    let baseline = variants.firstIndex { $0.name.contains("switch") } ?? 0
    variants = variants.indices.filter { $0 == baseline || variants[$0].name.contains(text) }.map { variants[$0] }
  }

  /// Runs every variant `repetitions` times, interleaved (v1 v2 v3 v1 v2 v3 ...), and reports
  /// the median per variant with its ratio to the `switch` variant.
  func measure(repetitions: Int) throws -> [BenchResult] {
    var samples = [[Double]](repeating: [], count: variants.count)
    var checksums = [Int?](repeating: nil, count: variants.count)
    let clock = ContinuousClock()
    for _ in 0..<repetitions {
      for (v, variant) in variants.enumerated() {
        var checksum = 0
        let elapsed = clock.measure { checksum = variant.run() }
        samples[v].append(Double(elapsed.nanoseconds) / Double(events))
        if let expected = checksums[0], expected != checksum {
          throw BenchError.checksumMismatch(workload: name, variant: variant.name, expected: expected, got: checksum)
        }
        checksums[v] = checksum
      }
    }
    let notes = notes.merging(finish?() ?? [:]) { _, late in late }
    let medians = samples.map(median)
    let baseline = zip(variants, medians).first { $0.0.name.contains("switch") }?.1 ?? medians[0]
    return variants.indices.map { v in
      BenchResult(
        workload: name, variant: variants[v].name, nsPerEvent: medians[v], ratioToSwitch: medians[v] / baseline,
        events: events, repetitions: repetitions, samples: samples[v], notes: notes)
    }
  }
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

extension Duration {
  var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }
}

/// Keeps a value alive so the optimiser cannot drop the computation that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
