import Foundation
import Storage

/// Records the server refused for their size, or too large to send: out of the outbox, so that
/// everything queued after them still goes, and listed until they fit (`vital remote status`).
extension Replica {
  public static let setAside = Table(
    "sync_set_aside",
    comment: """
      Records held back from sync because they are too large for the server; sent again whole
      once every value fits (an edit that shortens them).
      """,
    [
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("dataset", "NOT NULL"),
      .text("row_id", "NOT NULL"), .text("reason", "NOT NULL"), .integer("bytes", "NOT NULL"),
      .text("at", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, dataset, row_id)"], withoutRowID: true)

  public struct SetAside: Sendable, Equatable {
    public let dataset: String
    public let id: String
    /// Why, in words that finish "set aside: ...".
    public let reason: String
    /// The record's largest value, or the request it made, in bytes.
    public let bytes: Int
    public let at: Date

    /// How the reason of a record the server's rules refused begins (an older Vital stored a
    /// value its rules do not take); the others were too large.
    public static let invalidPrefix = "a value the server's rules refuse: "
    public var isInvalid: Bool { reason.hasPrefix(Self.invalidPrefix) }

    public init(dataset: String, id: String, reason: String, bytes: Int, at: Date) {
      self.dataset = dataset
      self.id = id
      self.reason = reason
      self.bytes = bytes
      self.at = at
    }
  }

  /// Takes record `id` out of the outbox and lists it as set aside.
  public func setAside(_ dataset: String, id: String, reason: String, bytes: Int) throws {
    try db.transaction { db in
      try db.execute(
        "DELETE FROM sync_outbox WHERE account_id = ? AND dataset = ? AND row_id = ?", accountID, dataset, id)
      try db.execute(
        """
        INSERT INTO sync_set_aside (account_id, dataset, row_id, reason, bytes, at) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (account_id, dataset, row_id) DO UPDATE SET reason = excluded.reason, bytes = excluded.bytes,
          at = excluded.at
        """, accountID, dataset, id, reason, bytes, now)
    }
  }

  /// Removes record `id`'s entries from the outbox: it is set aside, and goes whole once it fits.
  public func dropFromOutbox(_ dataset: String, id: String) throws {
    try db.execute(
      "DELETE FROM sync_outbox WHERE account_id = ? AND dataset = ? AND row_id = ?", accountID, dataset, id)
  }

  public func setAsideRecords() throws -> [SetAside] {
    try db.query(
      "SELECT dataset, row_id, reason, bytes, at FROM sync_set_aside WHERE account_id = ? ORDER BY at, dataset, row_id",
      accountID
    ) {
      SetAside(
        dataset: try $0.get(0), id: try $0.get(1), reason: try $0.get(2), bytes: try $0.get(3), at: try $0.get(4))
    }
  }

  /// Queues again, whole, every set-aside record whose values all fit now (or that is deleted:
  /// its tombstone is small). Returns how many.
  @discardableResult
  public func requeueSetAside(in datasets: [Dataset]) throws -> Int {
    let held = try setAsideRecords()
    guard !held.isEmpty else { return 0 }
    return try db.transaction { db in
      var requeued = 0
      for record in held {
        if let dataset = datasets.named(record.dataset), try largestValue(dataset, id: record.id) > Self.maxValueBytes {
          continue
        }
        // One the server refused for a value its rules do not take goes again once it does
        // (an edit corrected it); as it is, it would only be refused again.
        if let dataset = datasets.named(record.dataset),
          let stored = try values(dataset, record.id, fields: dataset.fields),
          dataset.fault(in: stored) != nil
        {
          continue
        }
        let hlc = try tick().description
        try db.execute(
          "INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc) VALUES (?, ?, ?, '*', NULL, ?)",
          accountID, record.dataset, record.id, hlc)
        try db.execute(
          "DELETE FROM sync_set_aside WHERE account_id = ? AND dataset = ? AND row_id = ?", accountID, record.dataset,
          record.id)
        requeued += 1
      }
      return requeued
    }
  }

  /// The size of record `id`'s largest synced value, 0 when it is gone.
  public func largestValue(_ dataset: Dataset, id: String) throws -> Int {
    let sizes = dataset.fields.map { "coalesce(length(CAST(\"\($0)\" AS BLOB)), 0)" }
    let expression = sizes.count == 1 ? sizes[0] : "max(\(sizes.joined(separator: ", ")))"
    return try db.scalar(
      Int.self, "SELECT \(expression) FROM \(dataset.table) WHERE \(dataset.key) = ? AND account_id = ?", id,
      accountID) ?? 0
  }
}
