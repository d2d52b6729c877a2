/// A FIFO queue of events: an array with a moving head, compacted when half is consumed.
@usableFromInline
struct Mailbox<Event> {
  @usableFromInline var items: [Event] = []
  @usableFromInline var head = 0

  @inlinable init() {}

  @inlinable var count: Int { items.count - head }
  @inlinable var isEmpty: Bool { head == items.count }

  @inlinable mutating func append(_ event: Event) { items.append(event) }

  @inlinable mutating func pop() -> Event? {
    guard head < items.count else { return nil }
    let event = items[head]
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: items.count <= 1024)
      head = 0
    } else if head >= 1024, head * 2 >= items.count {
      items.removeFirst(head)
      head = 0
    }
    return event
  }
}
