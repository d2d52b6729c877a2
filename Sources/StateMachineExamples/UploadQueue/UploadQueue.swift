public import StateMachine

/// An upload queue: a chart that runs one ``Upload`` child machine per file, two at a time, and
/// sums up when every file is sent or has failed.
///
/// Files added while uploading join the queue; each file's upload is a child spawned with the
/// file's name as its id (so `store.send(.retryNow, to: "a.jpg")` reaches it), which says
/// `uploaded(file)` or `failed(file)` when it is done. `finished` shows the summary, and more
/// files start it again.
public enum UploadQueue {
  /// The queue's states.
  public enum State: String, Hashable, Sendable, CaseIterable, Codable {
    case idle, uploading, finished
  }

  /// What the queue hears: files added, and what its children say.
  public enum Event: Hashable, Sendable, Codable, Discriminated, CustomStringConvertible {
    case add([String]), uploaded(String), failed(String)
    /// Internal: start the next file if there is room.
    case next

    public enum Kind: Hashable, Sendable, CaseIterable {
      case add, uploaded, failed, next
    }

    @inlinable public var discriminant: Kind {
      switch self {
      case .add: .add
      case .uploaded: .uploaded
      case .failed: .failed
      case .next: .next
      }
    }

    public var description: String {
      switch self {
      case .add(let files): "add(\(files.joined(separator: ", ")))"
      case .uploaded(let file): "uploaded(\(file))"
      case .failed(let file): "failed(\(file))"
      case .next: "next"
      }
    }
  }

  /// The files, by where they are.
  public struct Context: Hashable, Sendable, Codable {
    /// Waiting for room.
    public var pending: [String] = []
    /// Uploading now (at most ``limit``).
    public var active: [String] = []
    /// Sent.
    public var uploaded: [String] = []
    /// Failed after every retry.
    public var failed: [String] = []

    /// An empty queue.
    public init() {}

    /// What the screen shows.
    public var summary: String {
      var parts = ["\(uploaded.count) uploaded"]
      if !failed.isEmpty { parts.append("\(failed.count) failed (\(failed.joined(separator: ", ")))") }
      if !active.isEmpty { parts.append("uploading \(active.joined(separator: ", "))") }
      if !pending.isEmpty { parts.append("\(pending.count) waiting") }
      return parts.joined(separator: ", ")
    }
  }

  /// The queue itself does no work: its children do.
  public typealias Effect = Command<Event, Never>

  /// How many files upload at once.
  public static let limit = 2

  typealias Guard = ChartGuard<State, Event, Context>
  typealias Action = ChartAction<Event, Context, Effect>

  static let hasRoom = Guard("room and a file waiting") { context, _ in context.active.count < limit && !context.pending.isEmpty }
  static let allDone = Guard("every file done") { context, _ in context.pending.isEmpty && context.active.isEmpty }

  /// A file already waiting or uploading is not queued twice (its one child would be started
  /// again under the same id); one sent or failed before is queued again, as a new upload.
  static let enqueue = Action.update("queue files") { context, event in
    guard case .add(let files)? = event else { return }
    for file in files where !context.pending.contains(file) && !context.active.contains(file) {
      context.uploaded.removeAll { $0 == file }
      context.failed.removeAll { $0 == file }
      context.pending.append(file)
    }
  }
  static let take = Action.update("take the next file") { context, _ in context.active.append(context.pending.removeFirst()) }
  static let settle = Action.update("count the file") { context, event in
    switch event {
    case .uploaded(let file)?:
      context.active.removeAll { $0 == file }
      context.uploaded.append(file)
    case .failed(let file)?:
      context.active.removeAll { $0 == file }
      context.failed.append(file)
    default: break
    }
  }

  /// The file's upload, as a child machine: its work is `services`' upload of that file.
  public static func upload(_ file: String, services: UploadServices) -> ChildMachine<Event> {
    ChildMachine(
      Upload.table, context: Upload.Context(file: file),
      handler: { _, send in
        do {
          try await services.send(file)
          send(.succeeded)
        } catch is CancellationError {
          throw CancellationError()
        } catch {
          send(.attemptFailed)
        }
      },
      doneWhen: { $0 == .sent || $0 == .failed },
      onDone: { context in context.sent ? .uploaded(context.file) : .failed(context.file) })
  }

  /// The chart, whose children upload with `services`.
  public static func chart(services: UploadServices) -> Chart<State, Event, Context, Effect> {
    let start = Action.make("invoke upload as the file") { context, _ in
      context.active.last.map { .invoke(upload($0, services: services), id: EffectID($0), scope: .global) }
    }
    return buildChart {
      try Chart(name: "upload-queue", states: [
        .atomic(.idle, transitions: [.on(.add, to: .uploading, actions: [enqueue])]),
        .atomic(.uploading, transitions: [
          .always(when: allDone, to: .finished),
          .on(.add, do: [enqueue, .raise(.next)]),
          .on(.next, when: hasRoom, do: [take, start, .raise(.next)]),
          .on(.uploaded, do: [settle, .raise(.next)]),
          .on(.failed, do: [settle, .raise(.next)]),
        ], onEntry: [.raise(.next)]),
        .atomic(.finished, transitions: [.on(.add, to: .uploading, actions: [enqueue])]),
      ])
    }
  }

  /// The chart with uploads that always fail at once: for diagrams, checks and exploration,
  /// which never run its children.
  public static let chart = chart(services: UploadServices(send: { _ in throw UploadServices.Unavailable() }))
}
