import Foundation
import Replication
import Storage

/// What `vital serve admin` reads and changes: counts and flags, never a value.
extension SQLiteSyncRepository {
  public func accounts() throws -> [AdminAccount] {
    try db.query(
      """
      SELECT email, created_at, last_sync_at, (SELECT count(*) FROM tokens WHERE user_id = users.id), record_count,
        stored_bytes, sync_key_id IS NOT NULL, suspended
      FROM users ORDER BY email
      """
    ) { row in
      AdminAccount(
        email: try row.get(0), created: try row.get(1), lastSync: try row.get(2), devices: try row.get(3),
        records: try row.get(4), storedBytes: try row.get(5), encrypted: try row.get(6), suspended: try row.get(7))
    }
  }

  public func setSuspended(email: String, _ suspended: Bool) throws -> Bool {
    try db.execute("UPDATE users SET suspended = ? WHERE email = ?", suspended, email)
    return db.changes > 0
  }

  public func collectBlobs(storedBefore: Date) throws -> CollectedBlobs {
    try db.transaction(.immediate) { db in
      var freed: [String: Int64] = [:]
      var collected = CollectedBlobs(blobs: 0, bytes: 0)
      try db.forEachRow(
        """
        DELETE FROM blobs WHERE rowid IN (
          SELECT b.rowid FROM blobs b
          LEFT JOIN records r ON r.user_id = b.user_id AND r.dataset = '\(Dataset.blobName)' AND r.row_id = b.sha256
          WHERE (r.row_id IS NULL AND b.created_at < ?) OR json_extract(r.fields, '$._deleted.value') IN (1, 2))
        RETURNING user_id, length(data)
        """, storedBefore
      ) { row in
        let bytes: Int64 = try row.get(1)
        freed[try row.get(0), default: 0] += bytes
        collected.blobs += 1
        collected.bytes += bytes
      }
      for (user, bytes) in freed {
        try db.execute("UPDATE users SET stored_bytes = stored_bytes - ? WHERE id = ?", bytes, user)
      }
      return collected
    }
  }
}
