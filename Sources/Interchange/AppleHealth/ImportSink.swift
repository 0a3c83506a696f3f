import Foundation
import Records
import Replication
import Storage

/// The Apple Health import's writing half. It lives on the writer thread with a database
/// connection of its own, so nothing that is not `Sendable` is shared between the parsing
/// thread and the writing one.
struct ImportSink {
  /// What the writer counted; the parser counts the rest.
  struct Counts: Sendable {
    var inserted = 0
    var duplicates = 0
    /// Activity summaries whose figures changed since the last import.
    var updated = 0
  }

  typealias Batch = [(Dataset, [(id: String, values: [DatabaseValue])])]

  let db: Database
  let replica: Replica
  var counts = Counts()

  init(path: String, accountID: String, now: Date, change: ChangeJournal.Open? = nil) throws {
    var options = Database.Options()
    options.create = false
    db = try Database(path: path, options: options)
    ChangeJournal.resume(change, on: db)
    // Fewer, larger checkpoints while the import writes: the WAL is copied back less often.
    try db.execute("PRAGMA wal_autocheckpoint=20000")
    // An export comes type by type in time order, so its inserts land at the ends of the
    // indexes: half the usual cache holds what they touch, and keeps the import under 100 MB.
    try db.execute("PRAGMA cache_size=-16384")
    replica = Replica(db: db, accountID: accountID, now: now)
  }

  /// One batch, one transaction.
  mutating func write(_ batch: Batch) throws {
    try db.transaction { _ in
      for (dataset, records) in batch where dataset.name != Dataset.activitySummary.name {
        let inserted = try replica.insertNew(dataset, records)
        // A route is counted as one (the import's `routes`), however many parts it takes.
        if dataset.name == Dataset.workoutRoute.name { continue }
        counts.inserted += inserted
        counts.duplicates += records.count - inserted
      }
      if let activity = batch.first(where: { $0.0.name == Dataset.activitySummary.name }) {
        try mergeActivity(activity.1)
      }
    }
  }

  /// A day's activity summary is exported again, with later figures, while the day is not over:
  /// changed fields are written (and synced) as edits instead of being dropped as duplicates.
  private mutating func mergeActivity(_ records: [(id: String, values: [DatabaseValue])]) throws {
    let fields = Dataset.activitySummary.fields
    let columns = HealthStore.activitySummaries.list(fields)
    var new: [(id: String, values: [DatabaseValue])] = []
    for record in records {
      guard
        let stored = try db.queryFirst(
          "SELECT \(columns) FROM activity_summary WHERE id = ? AND account_id = ?", record.id, replica.accountID,
          row: { row in try fields.map { try row.get($0, as: DatabaseValue.self) } })
      else {
        new.append(record)
        continue
      }
      var changed: [String: DatabaseValue] = [:]
      for (i, field) in fields.enumerated() where stored[i] != record.values[i] { changed[field] = record.values[i] }
      if changed.isEmpty {
        counts.duplicates += 1
      } else {
        try replica.write(.activitySummary, id: record.id, changed)
        counts.updated += 1
      }
    }
    let inserted = try replica.insertNew(.activitySummary, new)
    counts.inserted += inserted
    counts.duplicates += new.count - inserted
  }
}
