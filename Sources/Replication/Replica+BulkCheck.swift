import Dispatch
import Foundation
import Storage
import Synchronization

extension Replica {
  /// Throws what the first record of `records` (in their order) breaks: a value over the size
  /// limit or a rule of `dataset`. A large batch (an import) is checked in pieces, one per core,
  /// before the one thread that writes begins.
  static func check(_ dataset: Dataset, _ records: [(id: String, values: [DatabaseValue])]) throws {
    let pieces = records.count >= 4096 ? max(1, ProcessInfo.processInfo.activeProcessorCount) : 1
    let size = (records.count + pieces - 1) / pieces
    let failures = Mutex<[Int: any Error]>([:])
    DispatchQueue.concurrentPerform(iterations: pieces) { piece in
      for record in records[piece * size..<min(records.count, (piece + 1) * size)] {
        do {
          try checkSizes(dataset, zip(dataset.fields, record.values))
          if let fault = dataset.fault(inOrder: record.values) {
            throw ReplicaError.invalid(dataset: dataset.name, id: record.id, field: fault.field, reason: fault.reason)
          }
        } catch {
          failures.withLock { $0[piece] = error }
          return
        }
      }
    }
    // The earliest piece's failure is the first record's: every piece before it passed whole.
    if let first = failures.withLock({ $0.min { $0.key < $1.key }?.value }) { throw first }
  }
}
