import Foundation
import Replication
import Storage
import Sync

/// A push goes out while the answer to the one before is written and the next is read: what
/// crosses from one turn of the sync loop to the next.
extension SyncClient {
  /// An answer as this device records it: the pulled records it applies, the newest clock among
  /// them, the last outbox entry the server has now, and the cursor to save.
  struct Acknowledgement {
    var records: [Replica.Incoming]
    var newest: HLC?
    var seq: Int64?
    var cursor: String
  }

  /// A failure of the work done while a request was on its way: passed on as it is, never taken
  /// for the request's own answer (a 413 for a blob of the next batch is not about this one).
  struct WhileWaiting: Error {
    let error: any Error
  }

  /// One sync request (encoded) on its way.
  static func start(_ body: Data, url: URL, token: String) -> Task<SyncResponse, any Error> {
    Task { try await exchange(body, url: url, token: token) }
  }

  /// Drops `value` on another thread, which frees it there.
  static func release<Value>(_ value: consuming Value) {
    let parcel = Parcel(value)
    DispatchQueue.global(qos: .utility).async { parcel.value = nil }
  }

  private final class Parcel<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: consuming Value) { self.value = value }
  }

  /// A page as it arrived (asked for with cursor `since`), and for an encrypted account already
  /// opened (with its blobs).
  struct Received: Sendable {
    var since: String?
    var response: SyncResponse
    var opened: ([WireChange], [String: Data])? = nil
    /// Its changes (opened ones, when sealed) checked: what `check` gives.
    var checked: [Checked]? = nil
  }

  typealias Checked = Replica.Incoming?

  /// Each change as this device applies it, or nil for one it cannot read (a dataset it does not
  /// know, a bad clock): those are passed over. `ahead`, on the core that reads the next page
  /// while this one is written: each that may be a new row here (no deletion) is checked as one
  /// too, which the writing core then need not do.
  static func check(_ changes: [WireChange], in datasets: [Dataset], ahead: Bool = false) -> [Checked] {
    var places = FieldPlaces()
    // The page's own datasets: its records are read, written and freed on three cores, each
    // busy with another page, and none waits on the others' reference counts.
    let datasets = datasets.map { $0.detached() }
    return changes.map { change in
      guard let record = try? change.incoming(now: .distantFuture, in: datasets, places: &places) else { return nil }
      return ahead && record.deletion == nil ? record.checkedAsNew() : record
    }
  }

  /// The next page, requested while this one is applied (or taken from `lookahead`, which sent
  /// the request already); sealed pages are opened on the way, on another core than the one
  /// writing the database. Once it came, the page after it is asked for through `lookahead`.
  static func prefetch(
    since cursor: String, key: DataKey?, url: URL, token: String, datasets: [Dataset], bounds: PullBounds,
    lookahead: Lookahead
  ) -> Task<Received, any Error> {
    let request = lookahead.take(since: cursor) ?? pull(since: cursor, key: key, url: url, token: token)
    let turn = lookahead.turn
    return Task {
      let response = try await withTaskCancellationHandler {
        try await request.value
      } onCancel: {
        request.cancel()
      }
      lookahead.follow(response, since: cursor, bounds: bounds, turn: turn, key: key, url: url, token: token)
      guard let key, response.encrypted else {
        return Received(since: cursor, response: response, checked: check(response.changes, in: datasets, ahead: true))
      }
      let opened = try await open(
        response.changes, sealer: try Sealer(key: key), url: url, token: token)
      // Not checked here: opening is the slower side of a sealed pull.
      return Received(since: cursor, response: response, opened: opened)
    }
  }

  /// One sync request (encoded) and its answer.
  static func exchange(_ body: Data, url: URL, token: String) async throws -> SyncResponse {
    let data = try await send("POST", "/v1/sync", body: body, token: token, url: url)
    guard var parsed = try? WireJSON.syncResponse(data) else {
      throw SyncError.badResponse("the sync answer is not the JSON of docs/sync-protocol.md")
    }
    parsed.receivedBytes = data.count
    return parsed
  }

  /// Does what the loop decided after a refusal (`SyncLoop.refused`, `oversized`).
  func perform(_ action: SyncLoop.Action, _ summary: inout Summary) throws {
    switch action {
    case .shrink: break
    case .resync(let requeue):
      if requeue { try replica.requeueAll() }
      summary.cursor = nil
    case .restamp(let serverTime):
      // Changes stamped while this device's clock ran ahead are stamped again at the server's
      // time, and the clock starts from there (docs/sync-protocol.md, "The clock").
      try replica.restamp(after: serverTime)
    case .setAside(let dataset, let id, let reason, let bytes):
      summary.setAside.append(try record(dataset, id: id, reason: reason, bytes: bytes))
    case .fail(let error): throw error
    case .unlock, .resendEverything: preconditionFailure("a whole sync's recovery, not a request's")
    }
  }
}
