@testable import StateMachine
import Testing

/// A store's mailbox: first in, first out, with the events a store raises for its own machine
/// ahead of the queue, in the order they were raised (SCXML's internal queue), and the events a
/// drainer took before a raise put back behind them.
@Suite("Mailbox: a queue with raised events ahead of it")
struct MailboxTests {
  enum Operation: Sendable, CustomStringConvertible {
    case append(Int), raise(Int), pop, putBack([Int])
    var description: String {
      switch self {
      case .append(let n): "append \(n)"
      case .raise(let n): "raise \(n)"
      case .pop: "pop"
      case .putBack(let held): "put back \(held)"
      }
    }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let operations: [Operation]
    /// What the pops return, in order, then what is left, popped until empty.
    let popped: [Int]
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(label: "appended events come out in order", operations: [.append(1), .append(2), .append(3)], popped: [1, 2, 3]),
    Case(label: "a raised event goes ahead of those queued", operations: [.append(1), .append(2), .raise(9)], popped: [9, 1, 2]),
    Case(label: "raised events keep the order they were raised in", operations: [.append(1), .raise(8), .raise(9), .append(2)],
         popped: [8, 9, 1, 2]),
    Case(label: "a raise after a pop takes the slot the popped event left", operations: [.append(1), .append(2), .pop, .raise(9)],
         popped: [1, 9, 2]),
    Case(label: "a raise after a raised event was taken goes ahead of the queue again",
         operations: [.append(1), .append(2), .raise(8), .pop, .raise(9)], popped: [8, 9, 1, 2]),
    Case(label: "events put back go behind the raised ones, ahead of the rest",
         operations: [.append(3), .raise(9), .putBack([1, 2])], popped: [9, 1, 2, 3]),
    Case(label: "put back into an empty queue, they are all there is", operations: [.putBack([1, 2])], popped: [1, 2]),
    Case(label: "a raise into an empty queue is the next event", operations: [.raise(9), .append(1)], popped: [9, 1]),
  ]

  @Test(arguments: cases)
  func order(_ c: Case) {
    var mailbox = Mailbox<Int>()
    var popped: [Int] = []
    for operation in c.operations {
      switch operation {
      case .append(let n): mailbox.append(n)
      case .raise(let n): mailbox.insertRaised(n)
      case .pop: popped.append(mailbox.pop()!)
      case .putBack(let held): mailbox.putBack(held)
      }
    }
    while let event = mailbox.pop() { popped.append(event) }
    #expect(popped == c.popped)
    #expect(mailbox.isEmpty && mailbox.count == 0 && mailbox.raised == 0)
  }

  @Test("random runs across the compaction thresholds agree with a plain array: raised ahead in order, the rest first in first out")
  func againstModel() {
    var random = SplitMix64(seed: 0x3A11_B0C5)
    for _ in 0..<20 {
      var mailbox = Mailbox<Int>()
      // The model: the raised events not taken yet, then the queue.
      var raised: [Int] = []
      var queued: [Int] = []
      var next = 0
      for _ in 0..<6_000 {
        next += 1
        switch random.next() % 16 {
        case 0:
          mailbox.insertRaised(next)
          raised.append(next)
        case 1...8:
          mailbox.append(next)
          queued.append(next)
        default:
          let expected = raised.isEmpty ? queued.first : raised.first
          if !raised.isEmpty { raised.removeFirst() } else if !queued.isEmpty { queued.removeFirst() }
          let got = mailbox.pop()
          guard got == expected else {
            Issue.record("popped \(String(describing: got)), expected \(String(describing: expected))")
            return
          }
        }
        #expect(mailbox.count == raised.count + queued.count)
        #expect(Int(mailbox.raised) == raised.count)
      }
      var rest: [Int] = []
      while let event = mailbox.pop() { rest.append(event) }
      #expect(rest == raised + queued)
    }
  }
}
