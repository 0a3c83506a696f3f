import Foundation
import Storage

/// What `vital serve admin` reads and changes: counts and flags, never a value.
extension SQLiteSyncRepository {
  public func accounts() throws -> [AdminAccount] {
    try db.query(
      """
      SELECT email, created_at, last_sync_at, (SELECT count(*) FROM token WHERE user_id = user.id), record_count,
        stored_bytes, sync_key_id IS NOT NULL, suspended
      FROM user ORDER BY email
      """
    ) { row in
      AdminAccount(
        email: try row.get(0), created: try row.get(1), lastSync: try row.get(2), devices: try row.get(3),
        records: try row.get(4), storedBytes: try row.get(5), encrypted: try row.get(6), suspended: try row.get(7))
    }
  }

  public func setSuspended(email: String, _ suspended: Bool) throws -> Bool {
    try db.execute("UPDATE user SET suspended = ? WHERE email = ?", suspended, email)
    return db.changes > 0
  }
}
