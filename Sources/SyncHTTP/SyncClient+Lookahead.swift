import Foundation
import Sync
import Synchronization

extension SyncClient {
  /// The request for the page after the one being read ahead, sent as soon as that page's
  /// cursor is known: the server reads the next page while this device checks the one before.
  /// Asked for only after the page it follows came, so one request at a time is on its way, as
  /// before. The sync loop takes it for the cursor it goes on from, or drops it; whatever is
  /// left when the loop ends is cancelled.
  final class Lookahead: Sendable {
    private struct State {
      var pending: (cursor: String, request: Task<SyncResponse, any Error>)?
      var closed = false
    }

    private let state = Mutex(State())

    /// Sends the request for the page after `response`, the answer to a request with cursor
    /// `since`, when the loop will ask for it: more is waiting, and the answer passes the
    /// loop's bounds without exhausting them (`bounds` as they were before it). Not once the
    /// loop has ended.
    func follow(
      _ response: SyncResponse, since: String, bounds: PullBounds, key: DataKey?, url: URL, token: String
    ) {
      var bounds = bounds
      guard response.hasMore, (try? bounds.check(since: since, response)) != nil, !bounds.exhausted else { return }
      let cursor = response.cursor
      let replaced: Task<SyncResponse, any Error>? = state.withLock { state in
        guard !state.closed else { return nil }
        defer { state.pending = (cursor, SyncClient.pull(since: cursor, key: key, url: url, token: token)) }
        return state.pending?.request
      }
      replaced?.cancel()
    }

    /// The request sent for `cursor`, if it is the one on its way; any other is cancelled.
    func take(since cursor: String) -> Task<SyncResponse, any Error>? {
      let pending = state.withLock { state in state.pending.take() }
      guard let pending else { return nil }
      guard pending.cursor == cursor else {
        pending.request.cancel()
        return nil
      }
      return pending.request
    }

    /// Cancels the request on its way, if any.
    func drop() {
      state.withLock { state in state.pending.take() }?.request.cancel()
    }

    /// Cancels the request on its way and sends no more.
    func close() {
      state.withLock { state in
        state.closed = true
        return state.pending.take()
      }?.request.cancel()
    }
  }

  /// A pull request (no changes) for the page after `cursor`, on its way.
  static func pull(since cursor: String, key: DataKey?, url: URL, token: String) -> Task<SyncResponse, any Error> {
    start(WireJSON.encode(SyncRequest(since: cursor, changes: [], keyID: key?.keyID)), url: url, token: token)
  }
}
