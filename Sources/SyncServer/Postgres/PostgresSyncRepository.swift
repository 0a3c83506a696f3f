import Auth
import Foundation
import Logging
import PostgresNIO
import Replication
import Storage
import Sync

/// The server's PostgreSQL backend, for several `vital serve` processes on one database. Each
/// user's changes are numbered by a counter in the user's row, taken under that row's lock: two
/// processes syncing the same user at once run one after the other, so a cursor never skips a
/// change that commits later.
public final class PostgresSyncRepository: SyncRepository {
  let client: PostgresClient
  let logger = Logger(label: "vital-serve.postgres")
  let epoch: String

  /// Brings the schema up to date; `client.run()` must already be running.
  public init(client: PostgresClient) async throws {
    self.client = client
    let logger = Logger(label: "vital-serve.postgres")
    try await client.withTransaction(logger: logger) { c in
      // One migrator at a time when several servers start together.
      try await c.query("SELECT pg_advisory_xact_lock(7152026)", logger: logger)
      for statement in Self.schema { try await c.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
      try await c.query(PostgresQuery(unsafeSQL: Self.countUsage), logger: logger)
      // Emails in Unicode NFC where that form is free (the same rule as on SQLite).
      var stored: [(id: String, email: String)] = []
      for try await (id, email) in try await c.query(
        "SELECT id, email FROM users ORDER BY created_at, id", logger: logger
      ).decode((String, String).self) {
        stored.append((id, email))
      }
      let (renames, duplicates) = Email.normalizing(stored)
      for rename in renames {
        try await c.query("UPDATE users SET email = \(rename.email) WHERE id = \(rename.id)", logger: logger)
      }
      ServerLog.warnDuplicates(duplicates)
    }
    var epoch = "0"
    for try await value in try await client.query("SELECT value FROM server_meta WHERE key = 'epoch'", logger: logger)
      .decode(String.self)
    {
      epoch = value
    }
    self.epoch = epoch
  }

  // MARK: Accounts

  public func createUser(email: String, passwordHash: String, now: Date, inviteSHA256: String?) async throws -> String {
    let id = UUID().uuidString.lowercased()
    let logger = self.logger
    let oldest = now.addingTimeInterval(-Invite.lifetime)
    do {
      try await transaction { c in
        if let inviteSHA256 {
          var used = false
          for try await _ in try await c.query(
            "DELETE FROM invites WHERE code_sha256 = \(inviteSHA256) AND created_at > \(oldest) RETURNING code_sha256",
            logger: logger
          ).decode(String.self) {
            used = true
          }
          guard used else { throw SyncRepositoryError.inviteRefused }
        }
        try await c.query(
          "INSERT INTO users (id, email, password_hash, created_at) VALUES (\(id), \(email), \(passwordHash), \(now))",
          logger: logger)
      }
    } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
      throw SyncRepositoryError.emailTaken
    }
    return id
  }

  public func createInvite(sha256: String, now: Date) async throws {
    try await client.query("INSERT INTO invites (code_sha256, created_at) VALUES (\(sha256), \(now))", logger: logger)
  }

  public func passwordHash(email: String) async throws -> (userID: String, hash: String, suspended: Bool)? {
    for try await (id, hash, suspended) in try await client.query(
      "SELECT id, password_hash, suspended FROM users WHERE email = \(email)", logger: logger
    ).decode((String, String, Bool).self) {
      return (id, hash, suspended)
    }
    return nil
  }

  public func lockedUntil(userID: String) async throws -> Date? {
    for try await until in try await client.query(
      "SELECT locked_until FROM users WHERE id = \(userID)", logger: logger
    ).decode(Date?.self) {
      return until
    }
    return nil
  }

  @discardableResult
  public func recordLogin(userID: String, succeeded: Bool, now: Date) async throws -> Bool {
    if succeeded {
      try await client.query(
        "UPDATE users SET failed_logins = 0, locked_until = NULL WHERE id = \(userID)", logger: logger)
      return false
    }
    // LoginLockout.afterFailure in one statement, so that failures on two servers both count.
    let attempts = LoginLockout.attempts
    let until = now.addingTimeInterval(LoginLockout.duration)
    // After a failure the count is 0 only when that failure set the lock.
    let rows = try await client.query(
      """
      UPDATE users SET
        locked_until = CASE WHEN failed_logins + 1 >= \(attempts) THEN \(until) ELSE locked_until END,
        failed_logins = CASE WHEN failed_logins + 1 >= \(attempts) THEN 0 ELSE failed_logins + 1 END
      WHERE id = \(userID)
      RETURNING failed_logins = 0
      """, logger: logger)
    for try await locked in rows.decode(Bool.self) { return locked }
    return false
  }

  public func setPasswordHash(userID: String, hash: String) async throws {
    try await client.query("UPDATE users SET password_hash = \(hash) WHERE id = \(userID)", logger: logger)
  }

  public func deleteUser(userID: String) async throws {
    try await client.query("DELETE FROM users WHERE id = \(userID)", logger: logger)
  }

  // MARK: Sync

  public func sync(
    userID: String, since: String?, changes: [ValidatedChange], page bounds: PageBounds, quota: Quota,
    keyID sealing: String?
  ) async throws -> SyncPage {
    let start = try position(since)
    let logger = self.logger
    let epoch = self.epoch
    return try await transaction { c in
      // The user's row lock: syncs of one user run one at a time across every server process.
      var seq: Int64 = 0
      var accountKey: String?
      // The UPDATE takes the row lock as SELECT ... FOR UPDATE would, and notes the sync.
      for try await (value, key) in try await c.query(
        "UPDATE users SET last_sync_at = now() WHERE id = \(userID) RETURNING seq, sync_key_id", logger: logger
      ).decode((Int64, String?).self) {
        seq = value
        accountKey = key
      }
      try SyncRepositoryError.check(changes, accountKey: accountKey, sealing: sealing)
      // A cursor past what this user has here came from another database.
      guard start <= seq else { throw SyncRepositoryError.resyncRequired }
      let stored = try await Self.storedRecords(c, userID: userID, changes, logger: logger)
      let writes = try MergedWrites(changes, stored: stored, seq: seq, since: start)
      if writes.accepted > 0 {
        // The records, the counter and the usage totals in one statement (one round trip); a
        // quota the totals pass throws, and the transaction takes all of it back.
        var usage: (Int64, Int64) = (0, 0)
        for try await row in try await c.query(
          """
          WITH written AS (
            INSERT INTO records (user_id, dataset, row_id, fields, seq)
            SELECT \(userID), * FROM unnest(\(writes.datasets)::text[], \(writes.ids)::text[], \(writes.fields)::text[], \(writes.seqs)::int8[])
            ON CONFLICT (user_id, dataset, row_id) DO UPDATE SET fields = EXCLUDED.fields, seq = EXCLUDED.seq)
          UPDATE users SET seq = \(writes.seq), stored_bytes = stored_bytes + \(writes.grownBytes),
            record_count = record_count + \(writes.newRecords)
          WHERE id = \(userID) RETURNING stored_bytes, record_count
          """, logger: logger
        ).decode((Int64, Int64).self) {
          usage = row
        }
        try quota.check(bytes: usage.0, records: usage.1, grew: writes.grew)
      }
      let kept = writes.echo.kept
      var rows: [PageRow] = []
      for try await (dataset, id, fields, rowSeq) in try await c.query(
        """
        SELECT dataset, row_id, CASE WHEN before < \(bounds.bytes) THEN fields END, seq FROM (
          \(unescaped: Self.pageWindow) WHERE user_id = \(userID) AND seq > \(start)
            AND (seq < \(kept.below) OR seq > \(kept.above) OR seq = ANY(\(kept.resend)::int8[]))
          ORDER BY seq LIMIT \(bounds.count + 1)) page
        """, logger: logger
      ).decode((String, String, String?, Int64).self) {
        rows.append(PageRow(dataset: dataset, id: id, fields: fields, seq: rowSeq))
      }
      let page = PageRow.page(rows, then: [], start: start, bounds: bounds, echo: writes.echo)
      return SyncPage(
        changesJSON: page.changes, cursor: "\(epoch):\(page.cursor)", hasMore: page.hasMore,
        accepted: writes.accepted, encrypted: accountKey != nil)
    }
  }

  /// The records of a page with the bytes of fields before each (summed from the stored sizes:
  /// octet_length reads no value), so that rows past the byte bound come without their fields,
  /// only to say "more". Completed by a WHERE and an ORDER BY seq LIMIT.
  static let pageWindow = """
    SELECT dataset, row_id, fields, seq,
      coalesce(sum(octet_length(fields)) OVER (ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
        AS before
    FROM records
    """

  /// The stored records `changes` name, in one query.
  static func storedRecords(
    _ c: PostgresConnection, userID: String, _ changes: [ValidatedChange], logger: Logger
  ) async throws -> [MergedWrites.Key: StoredRecord] {
    guard !changes.isEmpty else { return [:] }
    var stored: [MergedWrites.Key: StoredRecord] = [:]
    for try await (dataset, id, fields, seq) in try await c.query(
      """
      SELECT r.dataset, r.row_id, r.fields, r.seq FROM records r
      JOIN unnest(\(changes.map(\.dataset))::text[], \(changes.map(\.id))::text[]) AS k(dataset, row_id)
        ON r.dataset = k.dataset AND r.row_id = k.row_id
      WHERE r.user_id = \(userID)
      """, logger: logger
    ).decode((String, String, String, Int64).self) {
      stored[MergedWrites.key(dataset, id)] = StoredRecord(fields: fields, seq: seq)
    }
    return stored
  }

  /// The sequence number a cursor stands for; a cursor from another database asks for a resync.
  func position(_ cursor: String?) throws -> Int64 {
    guard let cursor, !cursor.isEmpty else { return 0 }
    let parts = cursor.split(separator: ":")
    guard parts.count == 2, parts[0] == epoch, let seq = Int64(parts[1]), seq >= 0 else {
      throw SyncRepositoryError.resyncRequired
    }
    return seq
  }

  // MARK: Blobs

  public func putBlob(userID: String, sha256: String, data: Data, quota: Quota, now: Date) async throws {
    let bytes = ByteBuffer(bytes: data)
    let logger = self.logger
    try await transaction { c in
      var inserted = false
      for try await _ in try await c.query(
        """
        INSERT INTO blobs (user_id, sha256, data, created_at) VALUES (\(userID), \(sha256), \(bytes), \(now))
        ON CONFLICT (user_id, sha256) DO NOTHING RETURNING 1
        """, logger: logger
      ).decode(Int.self) {
        inserted = true
      }
      guard inserted else { return }
      for try await total in try await c.query(
        "UPDATE users SET stored_bytes = stored_bytes + \(data.count) WHERE id = \(userID) RETURNING stored_bytes",
        logger: logger
      ).decode(Int64.self) {
        try quota.check(bytes: total, records: 0, grew: true)
      }
    }
  }

  public func collectBlobs(storedBefore: Date) async throws -> CollectedBlobs {
    var collected = CollectedBlobs(blobs: 0, bytes: 0)
    for try await (count, bytes) in try await client.query(
      """
      WITH gone AS (
        DELETE FROM blobs b USING blobs o
        LEFT JOIN records r ON r.user_id = o.user_id AND r.dataset = \(Dataset.blobName) AND r.row_id = o.sha256
        WHERE b.user_id = o.user_id AND b.sha256 = o.sha256
          AND ((r.row_id IS NULL AND o.created_at < \(storedBefore))
            OR (r.fields::jsonb -> '_deleted' ->> 'value') IN ('1', '2'))
        RETURNING b.user_id, octet_length(b.data) AS bytes),
      per AS (SELECT user_id, sum(bytes)::int8 AS bytes, count(*) AS blobs FROM gone GROUP BY user_id),
      freed AS (UPDATE users u SET stored_bytes = u.stored_bytes - per.bytes FROM per WHERE u.id = per.user_id)
      SELECT coalesce(sum(blobs), 0)::int8, coalesce(sum(bytes), 0)::int8 FROM per
      """, logger: logger
    ).decode((Int64, Int64).self) {
      collected = CollectedBlobs(blobs: Int(count), bytes: bytes)
    }
    return collected
  }

  public func blob(userID: String, sha256: String) async throws -> Data? {
    for try await buffer in try await client.query(
      "SELECT data FROM blobs WHERE user_id = \(userID) AND sha256 = \(sha256)", logger: logger
    ).decode(ByteBuffer.self) {
      return Data(buffer.readableBytesView)
    }
    return nil
  }

  /// A transaction whose domain errors come out as themselves (PostgresNIO wraps whatever the
  /// body throws), so that the edge can map them to 409 rather than 500.
  func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> sending T) async throws -> sending T {
    do {
      return try await client.withTransaction(logger: logger) { try await body($0) }
    } catch let error as PostgresTransactionError {
      if let domain = error.closureError as? SyncRepositoryError { throw domain }
      if let backup = error.closureError as? BackupError { throw backup }
      // A constraint the body ran into (a taken email) is named as the query's own error.
      if let query = error.closureError as? PSQLError { throw query }
      throw error
    }
  }

  // MARK: Sync key

  public func accounts() async throws -> [AdminAccount] {
    var accounts: [AdminAccount] = []
    for try await (email, created, lastSync, devices, records, bytes, encrypted, suspended) in try await client.query(
      """
      SELECT email, created_at, last_sync_at, (SELECT count(*) FROM tokens t WHERE t.user_id = u.id), record_count,
        stored_bytes, sync_key_id IS NOT NULL, suspended
      FROM users u ORDER BY email
      """, logger: logger
    ).decode((String, Date, Date?, Int64, Int64, Int64, Bool, Bool).self) {
      accounts.append(
        AdminAccount(
          email: email, created: created, lastSync: lastSync, devices: Int(devices), records: records,
          storedBytes: bytes, encrypted: encrypted, suspended: suspended))
    }
    return accounts
  }

  public func setSuspended(email: String, _ suspended: Bool) async throws -> Bool {
    var found = false
    for try await _ in try await client.query(
      "UPDATE users SET suspended = \(suspended) WHERE email = \(email) RETURNING id", logger: logger
    ).decode(String.self) {
      found = true
    }
    return found
  }

  public func syncKey(userID: String) async throws -> String? {
    for try await key in try await client.query("SELECT sync_key FROM users WHERE id = \(userID)", logger: logger)
      .decode(String?.self)
    {
      return key
    }
    return nil
  }

  public func setSyncKey(userID: String, json: String, keyID: String, replacing: String?) async throws
    -> SyncKeyUpdate
  {
    let logger = self.logger
    return try await transaction { c in
      var current: String?
      for try await id in try await c.query(
        "SELECT sync_key_id FROM users WHERE id = \(userID) FOR UPDATE", logger: logger
      ).decode(String?.self) {
        current = id
      }
      let update = SyncKeyUpdate.decide(current: current, new: keyID, replacing: replacing)
      if update.dropsRecords {
        try await c.query("DELETE FROM records WHERE user_id = \(userID)", logger: logger)
        try await c.query("DELETE FROM blobs WHERE user_id = \(userID)", logger: logger)
        try await c.query(
          """
          UPDATE users SET sync_key = \(json), sync_key_id = \(keyID), stored_bytes = 0, record_count = 0
          WHERE id = \(userID)
          """, logger: logger)
      } else if update == .replaced {
        try await c.query("UPDATE users SET sync_key = \(json) WHERE id = \(userID)", logger: logger)
      }
      return update
    }
  }
}
