import Auth
import Foundation
import Storage
import Sync

/// The server's SQLite backend: one file, one connection, requests taken one at a time on a
/// thread of its own, since every call blocks in SQLite.
public actor SQLiteSyncRepository: SyncRepository {
  let db: Database
  let epoch: String
  private let executor = DedicatedThreadExecutor(name: "vital-serve SQLite")

  public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  deinit { executor.shutdown() }

  static let migrator = Migrator([
    Migration(
      "0001_server",
      sql: """
        CREATE TABLE server_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
        INSERT INTO server_meta (key, value) VALUES ('epoch', lower(hex(randomblob(8))));
        CREATE TABLE user (
          id TEXT PRIMARY KEY,
          email TEXT NOT NULL UNIQUE,
          password_hash TEXT NOT NULL,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE token (
          token_sha256 TEXT PRIMARY KEY,
          user_id TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
          created_at TEXT NOT NULL,
          last_used_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE record (
          user_id TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
          dataset TEXT NOT NULL,
          row_id TEXT NOT NULL,
          fields TEXT NOT NULL,
          seq INTEGER NOT NULL,
          PRIMARY KEY (user_id, dataset, row_id)
        ) STRICT;
        CREATE INDEX record_user_seq ON record(user_id, seq);
        CREATE TABLE blob (
          user_id TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
          sha256 TEXT NOT NULL,
          data BLOB NOT NULL,
          PRIMARY KEY (user_id, sha256)
        ) STRICT;
        CREATE TABLE sequence (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL) STRICT;
        INSERT INTO sequence (id, value) VALUES (1, 0);
        """),
    Migration(
      "0002_login_lockout",
      sql: """
        ALTER TABLE user ADD COLUMN failed_logins INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE user ADD COLUMN locked_until TEXT;
        """),
    Migration(
      "0003_sync_key",
      sql: """
        ALTER TABLE user ADD COLUMN sync_key TEXT;
        ALTER TABLE user ADD COLUMN sync_key_id TEXT;
        """),
    // Emails in Unicode NFC where that form is free; accounts that are one address in NFC
    // stay apart (nothing is merged) and are named in the log at every start.
    Migration("0004_nfc_emails") { db in
      let stored = try db.query("SELECT id, email FROM user ORDER BY created_at, id") {
        (id: try $0.get(0, as: String.self), email: try $0.get(1, as: String.self))
      }
      for rename in Email.normalizing(stored).renames {
        try db.execute("UPDATE user SET email = ? WHERE id = ?", rename.email, rename.id)
      }
    },
    // What each account keeps, as running totals: a quota check costs nothing per sync.
    Migration(
      "0005_usage",
      sql: """
        ALTER TABLE user ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE user ADD COLUMN record_count INTEGER NOT NULL DEFAULT 0;
        UPDATE user SET
          stored_bytes = (SELECT coalesce(sum(length(CAST(fields AS BLOB))), 0) FROM record WHERE user_id = user.id)
            + (SELECT coalesce(sum(length(data)), 0) FROM blob WHERE user_id = user.id),
          record_count = (SELECT count(*) FROM record WHERE user_id = user.id);
        """),
    // What `vital serve admin` shows and does: the last sync, and suspended accounts.
    Migration(
      "0006_admin",
      sql: """
        ALTER TABLE user ADD COLUMN last_sync_at TEXT;
        ALTER TABLE user ADD COLUMN suspended INTEGER NOT NULL DEFAULT 0 CHECK (suspended IN (0, 1));
        """),
    // One-time registration codes (`vital serve --registration invite`), kept by their SHA-256.
    Migration(
      "0007_invites",
      sql: """
        CREATE TABLE invite (code_sha256 TEXT PRIMARY KEY, created_at TEXT NOT NULL) STRICT;
        """),
    // Each session names its device (`vital remote devices`); older sessions have no name.
    Migration(
      "0008_device_names",
      sql: """
        ALTER TABLE token ADD COLUMN device_name TEXT NOT NULL DEFAULT '';
        """),
    // When a blob's bytes came: bytes no record names are collected once an hour old. Bytes
    // stored before (and restored from a backup) count as old.
    Migration(
      "0009_blob_times",
      sql: """
        ALTER TABLE blob ADD COLUMN created_at TEXT NOT NULL DEFAULT '1970-01-01T00:00:00.000Z';
        """),
    // One vocabulary for the server's store: the tables as PostgreSQL and the backup name them.
    Migration(
      "0010_plural_names",
      sql: """
        ALTER TABLE user RENAME TO users;
        ALTER TABLE token RENAME TO tokens;
        ALTER TABLE record RENAME TO records;
        ALTER TABLE blob RENAME TO blobs;
        ALTER TABLE invite RENAME TO invites;
        """),
    // Records are stored with their fields sharing clocks ("*"), which an older server cannot
    // read: this step makes one refuse the store at start instead of breaking its devices.
    Migration(
      "0011_shared_clocks",
      sql: """
        INSERT INTO server_meta (key, value) VALUES ('fields', 'shared_clocks');
        """),
  ])

  public init(path: String) throws {
    db = try Database(path: path)
    // Deleted content is overwritten, not left in free pages: when encryption is turned on the
    // cleartext copies must really be gone from the file.
    try db.execute("PRAGMA secure_delete = ON")
    // Commits leave the log for `checkpointLater`, after the answer; past ten times that a
    // commit copies it itself.
    db.deferCheckpoints(after: 1000, limit: 10_000)
    try Self.migrator.migrate(db)
    epoch = try db.scalar(String.self, "SELECT value FROM server_meta WHERE key = 'epoch'") ?? "0"
    let stored = try db.query("SELECT id, email FROM users ORDER BY created_at, id") {
      (id: try $0.get(0, as: String.self), email: try $0.get(1, as: String.self))
    }
    ServerLog.warnDuplicates(Email.normalizing(stored).duplicates)
  }

  public func createUser(email: String, passwordHash: String, now: Date, inviteSHA256: String?) throws -> String {
    let id = UUID().uuidString.lowercased()
    try db.transaction(.immediate) { db in
      if let inviteSHA256 {
        try db.execute(
          "DELETE FROM invites WHERE code_sha256 = ? AND created_at > ?", inviteSHA256,
          now.addingTimeInterval(-Invite.lifetime))
        guard db.changes == 1 else { throw SyncRepositoryError.inviteRefused }
      }
      do {
        try db.execute(
          "INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)", id, email, passwordHash, now)
      } catch let error as StorageError where error.code == 2067 {
        throw SyncRepositoryError.emailTaken
      }
    }
    return id
  }

  public func createInvite(sha256: String, now: Date) throws {
    try db.execute("INSERT INTO invites (code_sha256, created_at) VALUES (?, ?)", sha256, now)
  }

  public func passwordHash(email: String) throws -> (userID: String, hash: String, suspended: Bool)? {
    try db.queryFirst("SELECT id, password_hash, suspended FROM users WHERE email = ?", email) {
      (try $0.get(0, as: String.self), try $0.get(1, as: String.self), try $0.get(2, as: Bool.self))
    }
  }

  public func lockedUntil(userID: String) throws -> Date? {
    try db.scalar(Date.self, "SELECT locked_until FROM users WHERE id = ?", userID)
  }

  @discardableResult
  public func recordLogin(userID: String, succeeded: Bool, now: Date) throws -> Bool {
    if succeeded {
      try db.execute("UPDATE users SET failed_logins = 0, locked_until = NULL WHERE id = ?", userID)
      return false
    }
    return try db.transaction { db in
      let (count, lockedUntil) =
        try db.queryFirst("SELECT failed_logins, locked_until FROM users WHERE id = ?", userID) {
          (try $0.get(0, as: Int.self), try $0.get(1, as: Date?.self))
        } ?? (0, nil)
      let (failures, lock) = LoginLockout.afterFailure(count: count, lockedUntil: lockedUntil, now: now)
      try db.execute("UPDATE users SET failed_logins = ?, locked_until = ? WHERE id = ?", failures, lock, userID)
      return lock != nil
    }
  }

  public func setPasswordHash(userID: String, hash: String) throws {
    try db.execute("UPDATE users SET password_hash = ? WHERE id = ?", hash, userID)
  }

  public func deleteUser(userID: String) throws {
    try db.transaction { db in
      // Spelled out rather than left to ON DELETE CASCADE, so the order is plain to read.
      for table in ["tokens", "records", "blobs"] { try db.execute("DELETE FROM \(table) WHERE user_id = ?", userID) }
      try db.execute("DELETE FROM users WHERE id = ?", userID)
    }
  }

  public func sync(
    userID: String, since: String?, changes: [ValidatedChange], page bounds: PageBounds, quota: Quota,
    keyID sealing: String?
  ) throws -> SyncPage {
    // Once the answer says "accepted" the device forgets what it sent: this commit must last.
    let page = try db.durably(when: !changes.isEmpty) {
      try merge(userID: userID, since: since, changes: changes, page: bounds, quota: quota, keyID: sealing)
    }
    checkpointLater()
    return page
  }

  private func merge(
    userID: String, since: String?, changes: [ValidatedChange], page bounds: PageBounds, quota: Quota,
    keyID sealing: String?
  ) throws -> SyncPage {
    try db.transaction(.immediate) { db in
      let start = try position(since, db: db)
      // The key id itself, not `sync_key_id IS NOT NULL`: SQLite 3.40 answers that expression
      // wrongly in a RETURNING clause (1 for a NULL key id).
      let keyID = try db.scalar(
        String.self,
        "UPDATE users SET last_sync_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? RETURNING coalesce(sync_key_id, '')",
        userID)
      let accountKey = keyID.flatMap { $0.isEmpty ? nil : $0 }
      try SyncRepositoryError.check(changes, accountKey: accountKey, sealing: sealing)
      // The transaction holds the write lock: the counter is read once and written once.
      let seq = try db.scalar(Int64.self, "SELECT value FROM sequence WHERE id = 1") ?? 0
      let writes = try MergedWrites(
        changes, stored: try storedRecords(userID: userID, changes, db: db), seq: seq, since: start)
      if writes.accepted > 0 {
        try Self.store(writes, userID: userID, db: db)
        try db.execute("UPDATE sequence SET value = ? WHERE id = 1", writes.seq)
        let (bytes, records) =
          try db.queryFirst(
            """
            UPDATE users SET stored_bytes = stored_bytes + ?, record_count = record_count + ? WHERE id = ?
            RETURNING stored_bytes, record_count
            """, writes.grownBytes, writes.newRecords, userID
          ) { (try $0.get(0, as: Int64.self), try $0.get(1, as: Int64.self)) } ?? (0, 0)
        try quota.check(bytes: bytes, records: records, grew: writes.grew)
      }
      // Read after the writes, without the run they took except what goes back (`EchoFilter`).
      // The scan stops at the first row past the page's bounds, which only says "more": its
      // fields, and those of the rows after it, are never read.
      let kept = writes.echo.kept
      var rows: [PageRow] = []
      var bytes = 0
      try db.scanRows(
        """
        SELECT dataset, row_id, fields, seq FROM records WHERE user_id = ? AND seq > ?
          AND (seq < ? OR seq > ? OR seq IN (SELECT value FROM json_each(?)))
        ORDER BY seq LIMIT ?
        """, userID, start, kept.below, kept.above, "[" + kept.resend.map(String.init).joined(separator: ",") + "]",
        bounds.count + 1
      ) { row in
        let past = rows.count >= bounds.count || bytes >= bounds.bytes
        // Read as String (the column is NOT NULL): read as an optional, every row looked the
        // optional's type up in the runtime's lock-guarded table, a tenth of a page's reading.
        let fields = past ? nil : try row.get(2, as: String.self)
        bytes += fields?.utf8.count ?? 0
        rows.append(PageRow(dataset: try row.get(0), id: try row.get(1), fields: fields, seq: try row.get(3)))
        return !past
      }
      let page = PageRow.page(rows, then: [], start: start, bounds: bounds, echo: writes.echo)
      return SyncPage(
        changesJSON: page.changes, cursor: "\(epoch):\(page.cursor)", hasMore: page.hasMore,
        accepted: writes.accepted, encrypted: accountKey != nil)
    }
  }

  /// The stored fields and sequence number of the records `changes` name, in one query per
  /// dataset (a push mostly carries one). CROSS JOIN keeps the named keys outside: left to
  /// itself SQLite walks every record of the user (by `record_user_seq`) and scans the keys for
  /// each, which grows with the account.
  private func storedRecords(userID: String, _ changes: [ValidatedChange], db: Database) throws -> [MergedWrites.Key:
    StoredRecord]
  {
    guard !changes.isEmpty else { return [:] }
    // Each dataset's ids as a JSON array of texts, written as bytes: quoted, interpolated and
    // joined, the keys cost a first push a third as much as the lookups they are for. An array
    // of [dataset, id] pairs cost each key two JSON paths, as much again as its lookup.
    var ids: [(dataset: String, json: [UInt8])] = []
    var places: [String: Int] = [:]
    var last: Int?
    for change in changes {
      let place: Int
      if let last, ids[last].dataset == change.dataset {
        place = last
      } else if let known = places[change.dataset] {
        place = known
      } else {
        place = ids.count
        places[change.dataset] = place
        ids.append((change.dataset, [UInt8(ascii: "[")]))
        // Mostly one dataset: room for all at once, not grown from small.
        if place == 0 { ids[place].json.reserveCapacity(changes.count * 40) }
      }
      last = place
      if ids[place].json.count > 1 { ids[place].json.append(UInt8(ascii: ",")) }
      WireJSON.appendQuoted(change.id, to: &ids[place].json)
    }
    var found: [MergedWrites.Key: StoredRecord] = [:]
    for (dataset, var list) in ids {
      list.append(UInt8(ascii: "]"))
      try db.forEachRow(
        """
        SELECT r.row_id, r.fields, r.seq FROM json_each(?) k
        CROSS JOIN records r ON r.user_id = ? AND r.dataset = ? AND r.row_id = k.value
        """, String(decoding: list, as: UTF8.self), userID, dataset
      ) { row in
        found[MergedWrites.key(dataset, try row.get(0))] = StoredRecord(fields: try row.get(1), seq: try row.get(2))
      }
    }
    return found
  }

  /// Copies the write-ahead log into the database once enough of it waits, in a job of its own
  /// on this actor: the device waiting for an answer does not wait for that too.
  private func checkpointLater() {
    guard db.isCheckpointDue else { return }
    Task { self.checkpoint() }
  }

  private func checkpoint() {
    do { try db.checkpointIfDue() } catch { ServerLog.checkpointFailed(error) }
  }

  /// Where a cursor points. One from another server database, or from beyond what this one has
  /// handed out, cannot be served: the client must download everything again.
  private func position(_ cursor: String?, db: Database) throws -> Int64 {
    guard let cursor, !cursor.isEmpty else { return 0 }
    let parts = cursor.split(separator: ":")
    guard parts.count == 2, parts[0] == epoch, let seq = Int64(parts[1]), seq >= 0 else {
      throw SyncRepositoryError.resyncRequired
    }
    let high = try db.scalar(Int64.self, "SELECT value FROM sequence WHERE id = 1") ?? 0
    guard seq <= high else { throw SyncRepositoryError.resyncRequired }
    return seq
  }

  public func putBlob(userID: String, sha256: String, data: Data, quota: Quota, now: Date) throws {
    // The device then pushes the record that names these bytes and never sends them again.
    defer { checkpointLater() }
    try db.durably { try storeBlob(userID: userID, sha256: sha256, data: data, quota: quota, now: now) }
  }

  private func storeBlob(userID: String, sha256: String, data: Data, quota: Quota, now: Date) throws {
    try db.transaction(.immediate) { db in
      guard
        try db.execute(
          "INSERT OR IGNORE INTO blobs (user_id, sha256, data, created_at) VALUES (?, ?, ?, ?)", userID, sha256, data,
          now) == 1
      else { return }
      let bytes =
        try db.scalar(
          Int64.self, "UPDATE users SET stored_bytes = stored_bytes + ? WHERE id = ? RETURNING stored_bytes",
          data.count,
          userID) ?? 0
      try quota.check(bytes: bytes, records: 0, grew: true)
    }
  }

  public func blob(userID: String, sha256: String) throws -> Data? {
    try db.scalar(Data.self, "SELECT data FROM blobs WHERE user_id = ? AND sha256 = ?", userID, sha256)
  }

  public func syncKey(userID: String) throws -> String? {
    try db.scalar(String.self, "SELECT sync_key FROM users WHERE id = ?", userID)
  }

  public func setSyncKey(userID: String, json: String, keyID: String, replacing: String?) throws -> SyncKeyUpdate {
    let update = try db.transaction(.immediate) { db -> SyncKeyUpdate in
      let current = try db.scalar(String.self, "SELECT sync_key_id FROM users WHERE id = ?", userID)
      let update = SyncKeyUpdate.decide(current: current, new: keyID, replacing: replacing)
      if update.dropsRecords {
        try db.execute("DELETE FROM records WHERE user_id = ?", userID)
        try db.execute("DELETE FROM blobs WHERE user_id = ?", userID)
        try db.execute(
          "UPDATE users SET sync_key = ?, sync_key_id = ?, stored_bytes = 0, record_count = 0 WHERE id = ?", json,
          keyID,
          userID)
      } else if update == .replaced {
        try db.execute("UPDATE users SET sync_key = ? WHERE id = ?", json, userID)
      }
      return update
    }
    // Old page images in the write-ahead log would still hold the cleartext, or the old key.
    if update.dropsRecords { try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    return update
  }

}
