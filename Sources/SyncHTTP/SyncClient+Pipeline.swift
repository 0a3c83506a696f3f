import Foundation
import Replication
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
}
