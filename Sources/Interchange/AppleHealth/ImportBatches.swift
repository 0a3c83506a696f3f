import Core
import Foundation
import Records
import Replication
import Storage

/// New health records gathered into batches and written on a thread of their own (`ImportSink`
/// through a `BatchWriter`), so that reading a file and writing the database use both cores.
/// Both imports (Apple Health's export, Gadgetbridge's database) hand their records here.
final class ImportBatches {
  private let writer: BatchWriter<ImportSink.Batch, ImportSink.Counts>
  private let batchSize: Int
  /// New records by dataset, in a fixed order (a dictionary keyed by Dataset would hash its
  /// field list for every record).
  private var batch: ImportSink.Batch = [
    (.healthSample, []), (.workout, []), (.activitySummary, []), (.workoutRoute, []),
  ]
  private var count = 0

  /// Writes into the database at `path`, as part of the change open on `db` (undo takes the
  /// whole import back).
  init(db: Database, accountID: String, now: Date, batchSize: Int) {
    let (path, change) = (db.path, ChangeJournal.open(on: db))
    self.batchSize = batchSize
    writer = BatchWriter(
      name: "vital import writer",
      open: { try ImportSink(path: path, accountID: accountID, now: now, change: change) },
      write: { try $0.write($1) }, close: { $0.counts })
  }

  deinit { _ = try? writer.finish() }

  /// Adds a record whose values are in the dataset's field order; false (and nothing added)
  /// when a value breaks its rule.
  func add(_ dataset: Dataset, id: String, _ values: [DatabaseValue]) throws -> Bool {
    if dataset.fault(inOrder: values) != nil { return false }
    let slot = batch.firstIndex { $0.0.name == dataset.name } ?? 2
    batch[slot].1.append((id, values))
    count += 1
    if count >= batchSize { try flush() }
    return true
  }

  /// Hands the records gathered so far to the writer thread.
  func flush() throws {
    guard count > 0 else { return }
    try writer.submit(batch)
    for i in batch.indices { batch[i].1.removeAll(keepingCapacity: true) }
    count = 0
  }

  /// Writes what is left and waits for the writer: what it counted.
  func finish() throws -> ImportSink.Counts {
    try flush()
    return try writer.finish()
  }
}
