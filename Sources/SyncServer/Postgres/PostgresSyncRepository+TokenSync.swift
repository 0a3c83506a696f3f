import Foundation
import Logging
import PostgresNIO
import Sync

/// A sync in at most two round trips to PostgreSQL, no transaction held between them: one
/// statement reads the token's user with the records the changes name (or, for a pull, with the
/// page), and one statement writes. The write goes through only if the user's counter and key
/// are still what the read saw; a write by another request in between (two of one user's
/// devices on two servers at once) makes it change nothing, and the request reads again. Every
/// write of records moves the counter under the user's row lock, so "the counter did not move"
/// means "nothing of this user changed": the outcome is the locked sync's. After a few lost
/// races the request takes the lock and waits (`sync(userID:...)`).
extension PostgresSyncRepository {
  static let optimisticAttempts = 3

  public func sync(
    tokenSHA256: String, now: Date, since: String?, changes: [ValidatedChange], page bounds: PageBounds, quota: Quota,
    keyID sealing: String?
  ) async throws -> TokenSync {
    // A cursor from another database is refused once the token is known to be good.
    let position = try? position(since)
    for _ in 0..<Self.optimisticAttempts {
      let read = try await readForSync(
        tokenSHA256: tokenSHA256, changes: changes, start: position ?? 0, bounds: bounds)
      guard let user = read.user else { return .unknownToken }
      let use = DeviceSession.use(lastUsed: user.lastUsed, now: now)
      if use == .expired {
        try await deleteToken(tokenSHA256: tokenSHA256)
        return .unknownToken
      }
      if user.suspended { return .suspended }
      try SyncRepositoryError.check(changes, accountKey: user.keyID, sealing: sealing)
      guard let start = position, start <= user.seq else { throw SyncRepositoryError.resyncRequired }
      if changes.isEmpty {
        if use == .touch || user.syncStale {
          try await touch(
            userID: user.id, tokenSHA256: tokenSHA256, now: now, token: use == .touch, sync: user.syncStale)
        }
        let page = PageRow.page(
          read.rows, then: [], start: start, bounds: bounds, echo: EchoFilter(since: start))
        return .synced(
          SyncPage(
            changesJSON: page.changes, cursor: "\(epoch):\(page.cursor)", hasMore: page.hasMore, accepted: 0,
            encrypted: user.keyID != nil))
      }
      let writes = try MergedWrites(changes, stored: read.stored, seq: user.seq, since: start)
      // Checked against what the read saw; the write checks again, in case a blob came between.
      try quota.check(
        bytes: user.storedBytes + writes.grownBytes, records: user.recordCount + writes.newRecords, grew: writes.grew)
      guard
        let rows = try await write(
          writes, user: user, tokenSHA256: tokenSHA256, now: now, touchToken: use == .touch, quota: quota,
          start: start, bounds: bounds)
      else { continue }
      let page = PageRow.page(rows, then: writes.resent, start: start, bounds: bounds, echo: writes.echo)
      return .synced(
        SyncPage(
          changesJSON: page.changes, cursor: "\(epoch):\(page.cursor)", hasMore: page.hasMore,
          accepted: writes.accepted, encrypted: user.keyID != nil))
    }
    guard let user = try await user(tokenSHA256: tokenSHA256, now: now) else { return .unknownToken }
    if user.suspended { return .suspended }
    return .synced(
      try await sync(userID: user.id, since: since, changes: changes, page: bounds, quota: quota, keyID: sealing))
  }

  /// The token's user as the read saw it.
  struct SyncUser {
    let id: String
    let seq: Int64
    let keyID: String?
    let suspended: Bool
    let storedBytes: Int64
    let recordCount: Int64
    let lastUsed: Date
    /// The last sync noted is over a minute old (or none is): this one is noted.
    let syncStale: Bool
  }

  /// The first round trip: the token's user, and the records `changes` name, or with no
  /// changes the page after `start`: one statement, so one snapshot.
  func readForSync(tokenSHA256: String, changes: [ValidatedChange], start: Int64, bounds: PageBounds) async throws
    -> (user: SyncUser?, stored: [MergedWrites.Key: StoredRecord], rows: [PageRow])
  {
    var user: SyncUser?
    var stored: [MergedWrites.Key: StoredRecord] = [:]
    var rows: [PageRow] = []
    let read =
      changes.isEmpty
      ? try await client.execute(
        SyncStatements.ReadPage(token: tokenSHA256, budget: bounds.bytes, start: start, limit: bounds.count + 1),
        logger: logger)
      : try await client.execute(
        SyncStatements.ReadRecords(token: tokenSHA256, datasets: changes.map(\.dataset), ids: changes.map(\.id)),
        logger: logger)
    for try await (kind, a, b, fields, seq, suspended, bytes, count, lastUsed, stale) in read {
      switch kind {
      case 0:
        user = SyncUser(
          id: a, seq: seq, keyID: b, suspended: suspended ?? false, storedBytes: bytes ?? 0, recordCount: count ?? 0,
          lastUsed: lastUsed ?? .distantPast, syncStale: stale ?? true)
      case 1:
        if let b, let fields { stored[MergedWrites.key(a, b)] = StoredRecord(fields: fields, seq: seq) }
      default:
        if let b { rows.append(PageRow(dataset: a, id: b, fields: fields, seq: seq)) }
      }
    }
    return (user, stored, rows)
  }

  /// The second round trip: the writes, the counter, the totals, the last sync and the token's
  /// use in one statement, with the page as it stood before them (without the records they
  /// move). Nil, and nothing written, when the counter or the key moved since the read, or a
  /// blob stored meanwhile took the account past its quota: the caller reads again.
  func write(
    _ writes: MergedWrites, user: SyncUser, tokenSHA256: String, now: Date, touchToken: Bool, quota: Quota,
    start: Int64, bounds: PageBounds
  ) async throws -> [PageRow]? {
    var written = false
    var rows: [PageRow] = []
    for try await (count, dataset, id, fields, seq) in try await client.execute(
      SyncStatements.Write(
        writes: writes, user: user.id, seq: user.seq, keyID: user.keyID, quota: quota, now: now, token: tokenSHA256,
        touchToken: touchToken, start: start, bounds: bounds), logger: logger)
    {
      written = count == 1
      if let dataset, let id, let seq { rows.append(PageRow(dataset: dataset, id: id, fields: fields, seq: seq)) }
    }
    return written ? rows : nil
  }

  /// Notes a pull: the token's last use and the account's last sync, each at most once a minute.
  func touch(userID: String, tokenSHA256: String, now: Date, token: Bool, sync: Bool) async throws {
    for try await _ in try await client.execute(
      SyncStatements.Touch(now: now, token: tokenSHA256, touchToken: token, user: userID, touchSync: sync),
      logger: logger)
    {}
  }
}
