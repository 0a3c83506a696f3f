import Foundation

/// Runs `write` for each submitted batch on a thread of its own, so that parsing the next batch
/// and writing this one use both cores. At most `capacity` batches wait, which bounds memory.
/// The first error stops the writer; `submit` and `finish` then throw it.
final class BatchWriter<Batch>: @unchecked Sendable {
  private let condition = NSCondition()
  private var queue: [Batch] = []
  private var closed = false
  private var done = false
  private var failure: (any Error)?
  private let capacity: Int
  private let write: (Batch) throws -> Void

  init(capacity: Int = 2, write: @escaping (Batch) throws -> Void) {
    self.capacity = capacity
    self.write = write
    let thread = Thread { [self] in self.run() }
    thread.name = "vital import writer"
    thread.start()
  }

  private func run() {
    while true {
      condition.lock()
      while queue.isEmpty && !closed { condition.wait() }
      guard !queue.isEmpty else {
        done = true
        condition.broadcast()
        condition.unlock()
        return
      }
      let batch = queue.removeFirst()
      condition.broadcast()
      condition.unlock()
      do {
        try write(batch)
      } catch {
        condition.lock()
        failure = error
        queue.removeAll()
        done = true
        condition.broadcast()
        condition.unlock()
        return
      }
    }
  }

  /// Queues a batch, waiting while the queue is full.
  func submit(_ batch: Batch) throws {
    condition.lock()
    defer { condition.unlock() }
    while queue.count >= capacity && failure == nil { condition.wait() }
    if let failure { throw failure }
    queue.append(batch)
    condition.broadcast()
  }

  /// Waits until every queued batch is written.
  func finish() throws {
    condition.lock()
    defer { condition.unlock() }
    closed = true
    condition.broadcast()
    while !done { condition.wait() }
    if let failure { throw failure }
  }
}
