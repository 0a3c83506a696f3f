import Foundation
import Replication
import Sync

/// The decisions of a sync, as a value: what follows each answer, each refusal and each failure
/// of a whole sync. `SyncClient` does the I/O (reading the outbox, sending, writing pages) and
/// asks this what to do next; tests walk its transitions without a network.
///
/// A sync pushes batches and pulls pages until the outbox is empty and the server has no more.
/// A refusal is recovered from where the device can act: a cursor the server cannot serve
/// (twice at most, queueing everything again the first time), a clock ahead of the server's
/// (once), a record too large or refused by the server's rules (set aside, the rest goes), a
/// request too large (half the size, again). A failed sync is recovered from once: an encrypted
/// account without the key, or a key rotated elsewhere (unlock with the passphrase), and a
/// server that lost the key (send everything again).
struct SyncLoop: Equatable {
  /// A record of the batch on its way: as the server knows it, and as this device does.
  struct Sent: Equatable {
    var wireDataset: String
    var wireID: String
    var dataset: String
    var id: String
  }

  enum Action: Equatable {
    /// Forget the cursor and what was read ahead; with `requeue`, queue every record again.
    case resync(requeue: Bool)
    /// Stamp the pending changes anew, after the server's time.
    case restamp(after: Date)
    /// Hold this record back (`Replica.setAside`) and send the rest.
    case setAside(dataset: String, id: String, reason: String, bytes: Int)
    /// Send less at a time: `budget` is halved.
    case shrink
    /// Enter the passphrase (an encrypted account without its key, or, `rotated`, a key rotated
    /// on another device), then sync again.
    case unlock(rotated: Bool)
    /// Queue everything again, the key first (the server lost it), then sync again.
    case resendEverything
    /// Stop the sync with this error.
    case fail(SyncError)
  }

  /// Estimated bytes of changes per request: half what the server takes, less after a refusal.
  private(set) var budget: Int
  private(set) var resyncs = 0
  private(set) var restamps = 0
  /// Whether a failed sync was recovered from already (once per `vital sync`).
  private(set) var recovered = false

  init(limits: SyncLimits) {
    budget = limits.bodyBytes / 2
  }

  /// The server stated its limits in an answer.
  mutating func stated(_ limits: SyncLimits) {
    budget = min(budget, limits.bodyBytes / 2)
  }

  /// A request encoded to `bytes`, more than the server's `limit`: fewer records, or the one
  /// record alone is too large for any request.
  mutating func oversized(bytes: Int, limit: Int, sent: [Sent]) -> Action {
    guard sent.count == 1, let only = sent.first else { return shrink() }
    return .setAside(
      dataset: only.dataset, id: only.id,
      reason:
        "it takes \(Replica.describe(bytes: bytes)) to send, more than the server takes in a request (\(Replica.describe(bytes: limit)))",
      bytes: bytes)
  }

  /// The server refused the request that carried `sent` (none: a pull).
  mutating func refused(_ error: SyncError, sent: [Sent]) -> Action {
    switch error {
    case .resyncRequired where resyncs < 2:
      // The server was restored from a backup, or it is another server: it may lack what this
      // device sent since, so everything goes again (a no-op where it has it) and comes back.
      defer { resyncs += 1 }
      return .resync(requeue: resyncs == 0)
    case .clockAhead(let serverTime) where restamps < 1:
      restamps += 1
      return .restamp(after: serverTime)
    case .tooLarge(let message, let dataset, let id) where !sent.isEmpty:
      // The server names the record it refused, or the request was too large as a whole.
      let named = sent.first { $0.wireDataset == dataset && $0.wireID == id }
      guard let refused = named ?? (sent.count == 1 ? sent[0] : nil) else { return shrink() }
      return .setAside(
        dataset: refused.dataset, id: refused.id, reason: "the server refused it: \(message)", bytes: 0)
    case .recordRefused(let message, let dataset, let id) where !sent.isEmpty:
      // A value an older Vital stored before its rules were written: held back, the rest goes.
      guard let refused = sent.first(where: { $0.wireDataset == dataset && $0.wireID == id }) else {
        return .fail(.recordRefused(message, dataset: dataset, id: id))
      }
      return .setAside(
        dataset: refused.dataset, id: refused.id,
        reason: Replica.SetAside.invalidPrefix + SyncClient.stripKept(message), bytes: 0)
    default:
      return .fail(error)
    }
  }

  /// A whole sync failed with `error`; `hasKey`: this device holds the account's sync key.
  mutating func failed(_ error: SyncError, hasKey: Bool) -> Action {
    guard !recovered else { return .fail(error) }
    let action: Action =
      switch error {
      case .encrypted where !hasKey: .unlock(rotated: false)
      case .keyRotated: .unlock(rotated: true)
      case .keyMissing: .resendEverything
      default: .fail(error)
      }
    if action != .fail(error) { recovered = true }
    return action
  }

  /// Whether the pulled records held so far are written now, with the page's cursor: when a
  /// batch was acknowledged, at the end, for sealed pages (the next is opened on another core
  /// meanwhile), when `heldLimit` records wait, or when the sync must stop.
  static func writesNow(pushed: Bool, hasMore: Bool, sealed: Bool, held: Int, heldLimit: Int, exhausted: Bool)
    -> Bool
  {
    pushed || !hasMore || sealed || held >= heldLimit || exhausted
  }

  /// Whether the sync is done: nothing was pushed and the server has no more.
  static func finished(pushed: Bool, hasMore: Bool) -> Bool { !pushed && !hasMore }

  private mutating func shrink() -> Action {
    budget = max(budget / 2, 1)
    return .shrink
  }
}
