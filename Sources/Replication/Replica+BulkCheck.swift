import Dispatch
import Foundation
import Storage
import Synchronization

extension Replica {
  /// Throws what the first of `records` breaks (in their order): a value over the size limit
  /// or a rule of `dataset`.
  static func check(
    _ dataset: Dataset, _ records: ArraySlice<(id: String, values: [DatabaseValue])>
  ) throws {
    for record in records {
      try checkSizes(dataset, zip(dataset.fields, record.values))
      if let fault = dataset.fault(inOrder: record.values) {
        throw ReplicaError.invalid(dataset: dataset.name, id: record.id, field: fault.field, reason: fault.reason)
      }
    }
  }

  /// The check of a batch being written. A large batch (an import) is checked on a thread of its
  /// own while this one writes it, the two taking the same time apart; `wait()` before the
  /// write commits, so that a batch with a fault leaves nothing. A small one is checked at once.
  final class BackgroundCheck: Sendable {
    /// From how many records the check runs beside the write.
    static let from = 4096
    private let done = DispatchSemaphore(value: 0)
    private let failure = Mutex<(any Error)?>(nil)

    /// Checks `records`; throws at once what a small batch breaks.
    init(_ dataset: Dataset, _ records: [(id: String, values: [DatabaseValue])]) throws {
      guard records.count >= Self.from else {
        defer { done.signal() }
        try Replica.check(dataset, records[...])
        return
      }
      // A thread of its own, not one of a pool: the writer blocks in `wait()`, and a pool as
      // wide as the cores may have no other thread to give.
      Thread.detachNewThread { [self] in
        do {
          try Replica.check(dataset, records[...])
        } catch {
          failure.withLock { $0 = error }
        }
        done.signal()
      }
    }

    /// Returns when the check has ended; throws the first fault it found.
    func wait() throws {
      done.wait()
      done.signal()
      if let failure = failure.withLock({ $0 }) { throw failure }
    }
  }
}
