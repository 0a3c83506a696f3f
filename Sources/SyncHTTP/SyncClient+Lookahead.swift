import Foundation
import Sync
import Synchronization

extension SyncClient {
  /// The request for the page after the one being read ahead, sent as soon as that page came
  /// (before it is checked or opened): the server reads the next page while this device checks
  /// the one before. It goes out only after the page it follows came, so one page is asked for
  /// at a time, as before. The sync loop takes it for the cursor it goes on from, or drops it;
  /// whatever is left when the loop ends is cancelled.
  final class Lookahead: Sendable {
    private struct State {
      var pending: (cursor: String, request: Task<SyncResponse, any Error>)?
      /// Moves on at each `drop`: a read-ahead started before it, which the loop gave up on,
      /// sends nothing after it.
      var turn = 0
      var closed = false
    }

    private let state = Mutex(State())

    /// What a read-ahead started now passes to `follow`.
    var turn: Int { state.withLock { $0.turn } }

    /// Sends the request for the page after `response`, the answer to a request with cursor
    /// `since`, when the loop will ask for it: more is waiting, and the answer passes the
    /// loop's bounds without exhausting them (`bounds` as they were before it). Not once the
    /// loop has dropped what was read ahead since `turn`, nor once it has ended.
    func follow(
      _ response: SyncResponse, since: String, bounds: PullBounds, turn: Int, key: DataKey?, url: URL, token: String
    ) {
      var bounds = bounds
      guard response.hasMore, (try? bounds.check(since: since, response)) != nil, !bounds.exhausted else { return }
      let cursor = response.cursor
      let replaced = state.withLock { state -> Task<SyncResponse, any Error>? in
        guard !state.closed, state.turn == turn else { return nil }
        let replaced = state.pending?.request
        state.pending = (cursor, SyncClient.pull(since: cursor, key: key, url: url, token: token))
        return replaced
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

    /// Cancels the request on its way, if any, and any that a read-ahead started before would
    /// still send.
    func drop() {
      state.withLock { state in
        state.turn += 1
        return state.pending.take()
      }?.request.cancel()
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
