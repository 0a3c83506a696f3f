import Foundation
import Replication
import Sync

/// What one sync takes from a server before it stops: a broken or hostile server must not keep a
/// device asking forever, nor fill it without end. Every page applied before the stop is kept
/// with its cursor, so a legitimate server's sync goes on where it stopped when run again.
/// docs/sync-protocol.md, "What a device takes from a server".
struct PullBounds {
  /// The longest cursor a device accepts; this protocol's cursors are `<16 hex>:<number>`.
  static let maxCursorLength = 64
  /// Pages in a row that say more is waiting and bring nothing.
  static let maxEmptyPages = 20
  /// Answer bytes in one sync: a first sync of a very large account stops here and goes on when
  /// run again.
  static let defaultMaxBytes = 4 << 30

  let server: String
  let maxBytes: Int
  private var emptyPages = 0
  private var bytes = 0

  init(server: String, maxBytes: Int = Self.defaultMaxBytes) {
    self.server = server
    self.maxBytes = maxBytes
  }

  /// Checks an answer to a request made with cursor `since`, and counts its bytes.
  mutating func check(since: String?, _ response: SyncResponse) throws {
    let cursor = response.cursor
    guard cursor.utf8.count <= Self.maxCursorLength else {
      throw stop(
        "it answered a cursor of \(cursor.utf8.count) characters (the protocol allows \(Self.maxCursorLength))")
    }
    guard let next = Self.parse(cursor) else {
      throw stop("it answered a cursor that is not <epoch>:<number>")
    }
    if let since, let previous = Self.parse(since), previous.epoch == next.epoch {
      if next.seq < previous.seq { throw stop("it moved the cursor back from \(since) to \(cursor)") }
      if response.hasMore, next.seq == previous.seq {
        throw stop("it said there is more but did not move past cursor \(since)")
      }
    }
    emptyPages = response.hasMore && response.changes.isEmpty ? emptyPages + 1 : 0
    guard emptyPages < Self.maxEmptyPages else {
      throw stop("\(Self.maxEmptyPages) pages in a row said there is more and brought nothing")
    }
    bytes += response.receivedBytes
  }

  /// Whether the sync has taken all it takes: the page that passed the bound is applied, then
  /// the sync stops with `exhaustedError`.
  var exhausted: Bool { bytes > maxBytes }

  var exhaustedError: SyncError {
    stop(
      "it sent more than \(Replica.describe(bytes: maxBytes)) in one sync; what arrived is kept, run 'vital sync' again to go on"
    )
  }

  private func stop(_ why: String) -> SyncError { .serverRunaway(server: server, why) }

  private static func parse(_ cursor: String) -> (epoch: Substring, seq: Int64)? {
    let parts = cursor.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
      parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let seq = Int64(parts[1]), seq >= 0
    else { return nil }
    return (parts[0], seq)
  }
}
