import Foundation
import Storage

/// Records another device sent that fail their dataset's rules (`Dataset.fault`): kept out of
/// the tables so that no read ever meets them, listed until a valid version of the record
/// arrives, and the rest of a sync goes on. The mirror of `sync_set_aside`, which holds back
/// what this device cannot send.
extension Replica {
  public static let refused = Table(
    "sync_refused",
    comment: """
      Records pulled from another device that failed their rules and were not applied; the
      newest refusal of each, until a valid version of it arrives.
      """,
    [
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("dataset", "NOT NULL"),
      .text("row_id", "NOT NULL"), .text("field", "NOT NULL"), .text("reason", "NOT NULL"), .text("device", "NOT NULL"),
      .text("at", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, dataset, row_id)"], withoutRowID: true)

  public struct Refusal: Sendable, Equatable {
    public let dataset: String
    public let id: String
    public let field: String
    /// Why, in words that finish "<field>: ...".
    public let reason: String
    /// The node of the clock the bad value came with: the device that wrote it.
    public let device: String
    public let at: Date
  }

  /// Notes that record `id` was not applied because of `fault`, written by `device`.
  func refuse(_ dataset: Dataset, id: String, _ fault: Dataset.Fault, device: String) throws {
    try db.execute(
      """
      INSERT INTO sync_refused (account_id, dataset, row_id, field, reason, device, at) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (account_id, dataset, row_id) DO UPDATE SET field = excluded.field, reason = excluded.reason,
        device = excluded.device, at = excluded.at
      """, accountID, dataset.name, id, fault.field, fault.reason, device, now)
  }

  /// Forgets the refusals of records that have since been applied whole.
  func clearRefusals(_ dataset: Dataset, _ ids: [String]) throws {
    guard !ids.isEmpty,
      try db.scalar(
        Int.self, "SELECT count(*) FROM sync_refused WHERE account_id = ? AND dataset = ?", accountID, dataset.name)
        ?? 0 > 0
    else { return }
    for first in stride(from: 0, to: ids.count, by: 500) {
      let part = ids[first..<min(first + 500, ids.count)]
      try db.execute(
        "DELETE FROM sync_refused WHERE account_id = ? AND dataset = ? AND row_id IN ("
          + Array(repeating: "?", count: part.count).joined(separator: ", ") + ")",
        arguments: [accountID, dataset.name] + part.map { $0 })
    }
  }

  /// Every refused record, oldest first.
  public func refusals(since: Date? = nil) throws -> [Refusal] {
    try db.query(
      """
      SELECT dataset, row_id, field, reason, device, at FROM sync_refused WHERE account_id = ? AND at >= ?
      ORDER BY at, dataset, row_id
      """, accountID, since ?? .distantPast
    ) { row in
      Refusal(
        dataset: try row.get(0), id: try row.get(1), field: try row.get(2), reason: try row.get(3),
        device: try row.get(4), at: try row.get(5))
    }
  }
}
