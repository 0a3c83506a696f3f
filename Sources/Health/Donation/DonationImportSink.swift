import Foundation
import Replication
import Storage

/// The donor import's writing half. It keeps one transaction open from the first batch to the
/// last, so the import stays all or nothing while the rows after this batch are still being
/// checked on another thread (a database file) or before the next call (in memory).
struct DonationImportSink {
  enum Batch: Sendable {
    case rows([(line: Int, donation: Donation)])
    /// A row failed its checks: nothing of the import may stay.
    case abort
  }

  struct Aborted: Error {}

  let store: DonationStore
  let withVitals: Bool
  private var stored: [String: Donation] = [:]
  private(set) var summary = DonationStore.ImportSummary()

  init(store: DonationStore, withVitals: Bool) throws {
    self.store = store
    self.withVitals = withVitals
    try store.db.keepJournalsInMemory()
    try store.db.begin()
    do {
      try store.db.forEachRow("SELECT \(DonationStore.columns) FROM donation WHERE account_id = ?", store.account.id) {
        row in
        let donation = try DonationStore.donation(row)
        stored[donation.id] = donation
      }
    } catch {
      store.db.rollback()
      throw error
    }
  }

  /// Writes a batch: new donations in bulk (in id order, so that the keys of `donation` and
  /// `sync_row` grow as they are written), changed ones field by field.
  mutating func write(_ batch: Batch) throws {
    guard case .rows(let rows) = batch else {
      store.db.rollback()
      throw Aborted()
    }
    do {
      var new: [(id: String, values: [DatabaseValue])] = []
      new.reserveCapacity(rows.count)
      for (line, var donation) in rows {
        summary.rows += 1
        if donation.status == .scheduled, let current = try store.scheduled(), current.id != donation.id {
          throw DonationStore.ImportError.row(
            line: line, "you already have a scheduled appointment (\(current.id.prefix(8))); cancel it first")
        }
        guard let old = stored[donation.id] else {
          new.append((donation.id, DonationStore.values(donation)))
          continue
        }
        if !withVitals { donation.vitals = old.vitals }
        if old == donation {
          summary.unchanged += 1
        } else {
          try store.update(donation, from: old)
          summary.updated += 1
        }
      }
      new.sort { $0.id < $1.id }
      let inserted = try store.replica.insertNew(.donation, new)
      summary.inserted += inserted
      summary.keptDeleted += new.count - inserted
    } catch {
      store.db.rollback()
      throw error
    }
  }

  func commit() throws -> DonationStore.ImportSummary {
    try store.db.commit()
    return summary
  }
}
