/// A FIFO queue of events: an array with a moving head, compacted when half is consumed.
///
/// Events a store raises for its own machine go ahead of the queue, after those raised before
/// them and not yet taken (``insertRaised(_:)``): SCXML's internal queue, which a machine
/// takes before any external event.
@usableFromInline
struct Mailbox<Event> {
  @usableFromInline var items: [Event] = []
  /// The index of the next event in `items`. (32 bits, with `raised` beside it in one word: a
  /// store's size is most of what an idle one costs. It never reaches 2³²: `pop()` compacts
  /// the queue when it reaches 2³¹.)
  @usableFromInline var head: UInt32 = 0
  /// How many of the events at the head were raised (``insertRaised(_:)``).
  @usableFromInline var raised: UInt32 = 0

  @inlinable init() {}

  @inlinable var count: Int { items.count &- Int(head) }
  @inlinable var isEmpty: Bool { Int(head) == items.count }

  @inlinable mutating func append(_ event: Event) { items.append(event) }

  @inlinable mutating func pop() -> Event? {
    guard Int(head) < items.count else { return nil }
    let event = items[Int(head)]
    head &+= 1
    if raised != 0 { raised &-= 1 }
    if Int(head) == items.count {
      items.removeAll(keepingCapacity: items.count <= 1024)
      head = 0
    } else if head >= 1024, Int(head) &* 2 >= items.count || head >= 1 << 31 {
      items.removeFirst(Int(head))
      head = 0
    }
    return event
  }

  /// Queues `event` ahead of every event queued, after those raised before it and not taken
  /// yet. (In the slot the last taken event left, when there is one: a raised event is nearly
  /// always alone.)
  @usableFromInline
  mutating func insertRaised(_ event: Event) {
    if raised == 0, head > 0 {
      head &-= 1
      items[Int(head)] = event
    } else {
      items.insert(event, at: Int(head) + Int(raised))
    }
    if raised < .max { raised &+= 1 }
  }

  /// Queues `held`, events taken from the queue before the raised ones now at its head were
  /// raised, back where they were: after the raised ones, ahead of everything else.
  @usableFromInline
  mutating func putBack(_ held: [Event]) {
    items.insert(contentsOf: held, at: Int(head) + Int(raised))
  }
}
