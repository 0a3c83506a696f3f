import Cryptography
import Foundation
import Replication
import Storage
import Sync

/// Talks to `vital serve` for one local account: remote accounts, sessions, and the sync loop.
public final class SyncClient {
  let db: Database
  let accountID: String
  let now: Date
  public let url: URL
  /// Outbox entries per request at most; a push is also cut by bytes (`SyncClient+Batches`).
  public var batchSize = 20_000
  /// How many pulled records at most wait to be applied together with the next pages.
  /// Few: one page is fetched ahead while the held ones are applied, so applying 25,000 at once
  /// left the other core idle most of that time, and gathering them left the writer idle. A
  /// first sync of 100,000 records took 15 % less time at 2,500 (a page, mostly) than at 25,000.
  public var heldRecords = 2_500
  /// How many pulled records are committed at once. Applied a few pages at a time, they wait
  /// for a commit together: random ids (records imported elsewhere) dirty most pages of every
  /// index on each commit, and a commit every 2,500 made a first sync of 100,000 such records
  /// write its tables to the log forty times.
  public var recordsPerCommit = 25_000
  /// How long at most those records wait for their commit: the write lock is held until then,
  /// and another process's write waits for it.
  public var secondsPerCommit = 1.0
  /// Answer bytes one sync takes before it stops (`PullBounds`).
  public var maxPullBytes = PullBounds.defaultMaxBytes
  /// What the server takes in one request: its defaults until a sync answer says otherwise.
  public var limits = SyncLimits.standard
  /// The server reads fields that share a clock: not until an answer says so (an older server
  /// refuses them), so a sync's first requests give every field its clock.
  public var serverSharesClocks = false
  /// The account's sync key when end-to-end encryption is on: records are sealed before they
  /// leave and opened before they are applied.
  public var syncKey: SyncKey?
  /// The datasets this device keeps: what it sends, and what it applies of what it pulls.
  let datasets: [Dataset]
  /// The one whose bytes travel through `/v1/blobs`.
  let blobDataset: Dataset

  public init(db: Database, accountID: String, now: Date, url: URL, datasets: [Dataset]) {
    guard let blobs = datasets.first(where: \.isBlob) else { preconditionFailure("the datasets must include blobs") }
    self.datasets = datasets
    blobDataset = blobs
    self.db = db
    self.accountID = accountID
    self.now = now
    self.url = url
  }

  var replica: Replica { Replica(db: db, accountID: accountID, now: now) }

  // MARK: Accounts on the server

  public func register(email: String, password: String, invite: String? = nil) async throws {
    var body = ["email": email, "password": password]
    if let invite { body["invite"] = invite.trimmingCharacters(in: .whitespaces).lowercased() }
    _ = try await send("POST", "/v1/accounts", json: body, token: nil)
  }

  /// Logs in and returns the bearer token; the session carries `deviceName` (`vital remote devices`).
  public func login(email: String, password: String, deviceName: String? = nil) async throws -> String {
    var body = ["email": email, "password": password]
    if let deviceName { body["device_name"] = deviceName }
    let data = try await send("POST", "/v1/sessions", json: body, token: nil)
    guard let object = try? JSONDecoder().decode([String: String].self, from: data), let token = object["token"] else {
      throw SyncError.badResponse("the login answer has no token")
    }
    return token
  }

  /// Deletes the account on the server with everything it holds there.
  public func deleteAccount(token: String) async throws {
    _ = try await send("DELETE", "/v1/accounts/current", body: nil, token: token)
  }

  public func logout(token: String) async throws {
    _ = try await send("DELETE", "/v1/sessions/current", body: nil, token: token)
  }

  // MARK: Sync

  public struct Summary: Sendable {
    public var pushed = 0
    public var pulled = 0
    public var cursor: String?
    /// Records this sync set aside because they are too large to send.
    public var setAside: [Replica.SetAside] = []
  }

  /// Pushes the outbox and pulls everything newer than `cursor`, page by page. Each page is
  /// applied, acknowledged and its cursor saved in one transaction (a pull's pages are committed
  /// several at once), so a crash or a lost answer at any point is repaired by running sync
  /// again.
  public func sync(
    token: String, cursor: String?, saveCursor: (String) throws -> Void,
    progress: (Summary) -> Void = { _ in }
  ) async throws -> Summary {
    // While pages stream in, the log is copied into the database on another core, every 4,000
    // pages (16 MiB): copied when this connection closed, a first sync's log kept this core
    // busy for a fifth of the sync after its last page. SQLite copies what is left at the close.
    // Stopped after the last commit, so that a copy under way goes on while the indexes are built.
    let checkpoint = db.path == ":memory:" ? nil : BackgroundCheckpoint(for: db, every: 4_000, limit: 20_000)
    defer { checkpoint?.stop() }
    // Pulled pages with their cursor, committed several at once (the lock is held meanwhile,
    // also while the next page is on its way).
    let pulled = CommitGroup(db, rowsPerCommit: recordsPerCommit, secondsOpen: secondsPerCommit)
    defer { pulled.rollBack() }
    do {
      let summary = try await sync(token: token, cursor: cursor, saveCursor: saveCursor, progress: progress, pulled)
      // Indexes a first sync left out (`DeferredIndexes`), or an earlier one that stopped
      // before its end, built in its last commit.
      try DeferredIndexes.restore(in: db)
      try pulled.commit()
      return summary
    } catch {
      // What the sync merged before it failed is kept; a commit that fails is the error then,
      // so that no one goes on from a cursor that was not stored. Indexes that cannot be built
      // now are built by the next sync.
      defer { _ = try? DeferredIndexes.restore(in: db) }
      try pulled.commit()
      throw error
    }
  }

  private func sync(
    token: String, cursor: String?, saveCursor: (String) throws -> Void, progress: (Summary) -> Void,
    _ pulled: CommitGroup
  ) async throws -> Summary {
    var summary = Summary(cursor: cursor)
    var bounds = PullBounds(server: url.absoluteString, maxBytes: maxPullBytes)
    var loop = SyncLoop(limits: limits)
    // While one page is applied the next is already on its way: the server's time and the
    // network hide behind the local writes. The request for the page after that goes out as
    // soon as the next one came (`Lookahead`), while it is checked here.
    var prefetched: Task<Received, any Error>?
    let lookahead = Lookahead()
    defer {
      prefetched?.cancel()
      lookahead.close()
    }
    // Statement journals of the many-row inserts stay in memory: in temporary files they were
    // most of a first sync's writes (several per record).
    try db.keepJournalsInMemory()
    try await uploadKeyIfNeeded(token: token)
    let key = syncKey?.key
    let sealer = try key.map { try Sealer(key: $0) }
    // A record set aside earlier goes again once it fits (an edit shortened it).
    try replica.requeueSetAside(in: datasets)
    // Pulled records not applied yet, and the newest clock among them.
    var held: (records: [Replica.Incoming], newest: HLC?) = ([], nil)
    // The batch after the one on its way, read while the server merged that one.
    var prepared: Batch?
    // What an answer acknowledged, written while the next batch is on its way when there is one.
    var unwritten: Acknowledgement?
    func write(_ acknowledgement: Acknowledgement?) throws {
      guard let acknowledgement else { return }
      let replica = self.replica
      func apply(_ db: Database) throws {
        try replica.applyPage(acknowledgement.records)
        if let newest = acknowledgement.newest { try replica.observe(newest) }
        if let seq = acknowledgement.seq { try replica.acknowledge(upTo: seq) }
        try saveCursor(acknowledgement.cursor)
      }
      if acknowledgement.seq == nil {
        try pulled.write(rows: acknowledgement.records.count, apply)
      } else {
        // The transaction that records an acknowledgement is made durable at once (FULL): once
        // the outbox entries are gone, only the server holds those changes.
        try pulled.commit()
        try db.durably { try db.transaction(.immediate, apply) }
      }
      // Freeing the applied records was a tenth of the writer's time in a profile of a first
      // sync: in the clear another core does it (in a sealed pull it is busy opening pages).
      if sealer == nil { Self.release(acknowledgement.records) }
    }
    while true {
      let batch: Batch
      if let next = prepared.take(), next.budget == loop.budget {
        batch = next
      } else {
        try write(unwritten.take())
        batch = try await prepare(
          after: 0, budget: loop.budget, sealer: sealer, token: token, setAside: &summary.setAside)
      }
      let (pending, outgoing) = (batch.pending, batch.outgoing)
      let sent = outgoing.map {
        SyncLoop.Sent(wireDataset: $0.wire.dataset, wireID: $0.wire.id, dataset: $0.dataset, id: $0.id)
      }
      let since = summary.cursor
      var received: Received
      do {
        if let next = prefetched, outgoing.isEmpty {
          try write(unwritten.take())
          received = try await next.value
        } else {
          // Changes to push came while a page was read ahead: that page and the one after it
          // are asked for again, with this push.
          if let next = prefetched.take() {
            next.cancel()
            lookahead.drop()
          }
          let body = WireJSON.encode(since: since, keyID: key?.keyID, changes: batch.encoded)
          if body.count > limits.bodyBytes, !outgoing.isEmpty {
            // The estimate fell short (text that grows when escaped).
            try write(unwritten.take())
            try perform(loop.oversized(bytes: body.count, limit: limits.bodyBytes, sent: sent), &summary)
            continue
          }
          let request = Self.start(body, url: url, token: token)
          // While the server merges this batch, the answer to the one before is written and the
          // next one is read and sealed: each waited for the other. The next is read before this
          // answer is merged, so a field the answer brings newer goes older, and loses to the
          // newer one on the server by its clock. A crash before the write sends both batches
          // again: a merge of what the server has changes nothing.
          do {
            try write(unwritten.take())
            if let last = pending.last {
              prepared = try await prepare(
                after: last.seq, budget: loop.budget, sealer: sealer, token: token, setAside: &summary.setAside)
            }
          } catch {
            request.cancel()
            throw WhileWaiting(error: error)
          }
          received = Received(since: since, response: try await request.value)
        }
        prefetched = nil
      } catch let failure as WhileWaiting {
        throw failure.error
      } catch let error as SyncError {
        // What was read ahead belongs to a request that did not go through.
        prefetched?.cancel()
        prefetched = nil
        lookahead.drop()
        prepared = nil
        try perform(loop.refused(error, sent: sent), &summary)
        continue
      }
      if received.response.sharedClocks { serverSharesClocks = true }
      if let stated = received.response.limits {
        limits = stated
        loop.stated(stated)
      }
      try bounds.check(since: received.since, received.response)
      let response = received.response
      // A first sync of more than a page fills empty tables: their other indexes are built
      // once at its end (`DeferredIndexes`), not record by record at random places.
      if received.since == nil, response.hasMore {
        try pulled.write(rows: 0) { db in try DeferredIndexes.drop(on: datasets, in: db) }
      }
      if outgoing.isEmpty && response.hasMore && !bounds.exhausted {
        prefetched = Self.prefetch(
          since: response.cursor, key: key, url: url, token: token, datasets: datasets, bounds: bounds,
          lookahead: lookahead)
      } else {
        lookahead.drop()
      }
      // Nothing of a page is applied unless all of it opens.
      if response.encrypted, sealer == nil { throw SyncError.encrypted }
      if !response.encrypted, sealer != nil { throw SyncError.keyMissing }
      let (incoming, blobs) =
        if let opened = received.opened { opened } else {
          try await self.incoming(response.changes, sealer: sealer, token: token)
        }
      // Each record moved out, not copied: a copy retained all a record holds, and the page then
      // released it all again, on the core that writes.
      var checked = received.checked.take() ?? Self.check(incoming, in: datasets)
      if held.records.isEmpty { held.records.reserveCapacity(checked.count) }
      for index in checked.indices {
        guard let record = checked[index].take() else { continue }
        if let newest = record.newest, held.newest.map({ newest > $0 }) ?? true { held.newest = newest }
        if record.dataset.isBlob {
          guard let data = blobs[incoming[index].id] else { continue }
          held.records.append(record.with(untracked: ["data": .blob(data)]))
        } else {
          held.records.append(record)
        }
      }
      // Pages of a pull are applied several at once: a first sync's random ids touch most pages
      // of every index on each commit, and each commit writes them all again to the log. Not
      // sealed pages: the next one is opened on another core while this one is applied, and
      // holding them would leave that core idle.
      if SyncLoop.writesNow(
        pushed: !pending.isEmpty, hasMore: response.hasMore, sealed: sealer != nil, held: held.records.count,
        heldLimit: heldRecords, exhausted: bounds.exhausted)
      {
        let acknowledgement = Acknowledgement(
          records: held.records, newest: held.newest, seq: pending.last?.seq, cursor: response.cursor)
        held = ([], nil)
        if !pending.isEmpty, let next = prepared, !next.pending.isEmpty, next.budget == loop.budget {
          unwritten = acknowledgement
        } else {
          try write(acknowledgement)
        }
      }
      summary.pushed += outgoing.count
      summary.pulled += response.changes.count
      summary.cursor = response.cursor
      progress(summary)
      if SyncLoop.finished(pushed: !pending.isEmpty, hasMore: response.hasMore) { return summary }
      if bounds.exhausted {
        try write(unwritten.take())
        throw bounds.exhaustedError
      }
      // A batch is a hundred thousand small objects: another core frees them while this one
      // sends the next (the server's core, which waits for it). The page that came goes too:
      // freed here, its changes held this core 6 to 20 ms a page (a fifth of a first sync of
      // 100,000 records) while the page after it was already waiting. Peak memory stayed as it
      // was (108 to 123 MB, against 117 to 122 MB).
      Self.release(
        (
          consume batch, consume pending, consume outgoing, consume received, consume response, consume incoming,
          consume checked, consume blobs
        ))
    }
  }

  /// A batch whose reading was `cut` (by its limit of outbox entries or of records) may end
  /// inside a record; that record waits for the next batch, so a new record never reaches the
  /// server (and other devices) with only some of its fields.
  static func wholeRecords(_ pending: consuming [Replica.Pending], cut: Bool) -> [Replica.Pending] {
    guard cut, let last = pending.last,
      let start = pending.firstIndex(where: { $0.id == last.id && $0.dataset == last.dataset }), start > 0
    else { return pending }
    pending.removeSubrange(start...)
    return pending
  }

  /// A page as local records: opened when encryption is on, with the bytes of its blobs.
  private func incoming(_ changes: [WireChange], sealer: Sealer?, token: String) async throws -> (
    [WireChange], [String: Data]
  ) {
    guard let sealer else { return (changes, try await downloadBlobs(for: changes, token: token)) }
    return try await Self.open(changes, sealer: sealer, url: url, token: token)
  }

  static func open(_ changes: [WireChange], sealer: Sealer, url: URL, token: String)
    async throws -> ([WireChange], [String: Data])
  {
    var opened: [WireChange] = []
    opened.reserveCapacity(changes.count)
    var blobs: [String: Data] = [:]
    for change in changes {
      guard change.dataset == Dataset.blobName else {
        opened.append(try sealer.open(change))
        continue
      }
      guard
        let sealed = try? await send(
          "GET", "/v1/blobs/\(change.id)", body: nil, token: token, url: url),
        Crypto.sha256Hex(sealed) == change.id
      else { continue }  // missing or damaged on the server: the record waits for a later sync
      let data = try sealer.openBlob(sealed)
      let id = Crypto.sha256Hex(data)
      blobs[id] = data
      opened.append(try sealer.open(change, localID: id))
    }
    return (opened, blobs)
  }

  private func downloadBlobs(for changes: [WireChange], token: String) async throws -> [String: Data] {
    var blobs: [String: Data] = [:]
    // Read in place: a copy of each change (all of a first sync's) was retained and released.
    for index in changes.indices where changes[index].dataset == Dataset.blobName {
      let change = changes[index]
      if try replica.exists(blobDataset, id: change.id) {
        if let data = try db.scalar(
          Data.self, "SELECT data FROM blob WHERE account_id = ? AND sha256 = ?", accountID, change.id)
        {
          blobs[change.id] = data
        }
        continue
      }
      guard let data = try? await send("GET", "/v1/blobs/\(change.id)", body: nil, token: token),
        Crypto.sha256Hex(data) == change.id
      else { continue }  // missing or damaged on the server: the record waits for a later sync
      blobs[change.id] = data
    }
    return blobs
  }
}
