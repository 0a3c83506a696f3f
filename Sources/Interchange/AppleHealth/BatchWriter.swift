import Dispatch
import Foundation
import Records
import Synchronization

/// Runs `write` for each submitted batch on a thread of its own, so that parsing the next batch
/// and writing this one use both cores. At most `capacity` batches wait, which bounds memory.
///
/// `Sendable` by what it holds, not by a promise: the writer's state (a `Sink`, e.g. its own
/// database connection) is made on the writer thread by `open` and never leaves it; batches
/// and the result `close` makes of the sink are `Sendable`, and the queue is behind a `Mutex`.
/// The first error stops the writer; `submit` and `finish` then throw it.
final class BatchWriter<Batch: Sendable, Output: Sendable>: Sendable {
  private struct State {
    var queue: [Batch] = []
    var outcome: Result<Output, any Error>?
  }

  private let state = Mutex(State())
  /// One signal per queued batch, and one from `finish`.
  private let items = DispatchSemaphore(value: 0)
  /// Room in the queue.
  private let slots: DispatchSemaphore
  private let ended = DispatchSemaphore(value: 0)
  private let capacity: Int

  init<Sink>(
    capacity: Int = 2, name: String, open: @escaping @Sendable () throws -> Sink,
    write: @escaping @Sendable (inout Sink, Batch) throws -> Void, close: @escaping @Sendable (Sink) throws -> Output
  ) {
    self.capacity = capacity
    slots = DispatchSemaphore(value: capacity)
    let thread = Thread { [self] in run(open: open, write: write, close: close) }
    thread.name = name
    thread.start()
  }

  private func run<Sink>(
    open: () throws -> Sink, write: (inout Sink, Batch) throws -> Void, close: (Sink) throws -> Output
  ) {
    let outcome = Result<Output, any Error>(catching: {
      var sink = try open()
      while let batch = next() { try write(&sink, batch) }
      return try close(sink)
    })
    state.withLock {
      $0.outcome = outcome
      $0.queue.removeAll()
    }
    // Wakes a submitter waiting for room, so that it sees the error.
    for _ in 0..<capacity { slots.signal() }
    ended.signal()
  }

  /// The next batch, or nil once `finish` has been called and the queue is empty.
  private func next() -> Batch? {
    items.wait()
    let batch = state.withLock { $0.queue.isEmpty ? nil : $0.queue.removeFirst() }
    if batch != nil { slots.signal() }
    return batch
  }

  /// Queues a batch, waiting while the queue is full.
  func submit(_ batch: Batch) throws {
    slots.wait()
    let failure = state.withLock { state -> (any Error)? in
      if case .failure(let error)? = state.outcome { return error }
      // A batch after `finish` would never be written: a mistake in the caller, not the data.
      precondition(state.outcome == nil, "a batch was submitted after finish")
      state.queue.append(batch)
      return nil
    }
    if let failure {
      slots.signal()
      throw failure
    }
    items.signal()
  }

  /// Waits until every queued batch is written; what `close` made of the sink. Calling it
  /// again returns the same.
  @discardableResult
  func finish() throws -> Output {
    items.signal()
    ended.wait()
    ended.signal()
    return try state.withLock { $0.outcome! }.get()
  }
}
