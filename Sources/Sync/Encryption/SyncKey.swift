import Foundation
import Storage

/// A device's copy of the account's sync key, kept in the local database like the session
/// token: readable only through the database file (mode 0600), never printed or logged.
public struct SyncKey: Sendable {
  public var key: DataKey
  public var wrapped: WrappedKey
  /// The server the wrapped key was last stored on; another URL gets it on the next sync.
  public var uploadedTo: String?

  public init(key: DataKey, wrapped: WrappedKey, uploadedTo: String?) {
    self.key = key
    self.wrapped = wrapped
    self.uploadedTo = uploadedTo
  }

  public static func load(_ db: Database, accountID: String) throws -> SyncKey? {
    try db.queryFirst("SELECT data_key, wrapped, uploaded_to FROM sync_key WHERE account_id = ?", accountID) {
      SyncKey(
        key: try DataKey(bytes: Array(try $0.get("data_key", as: Data.self))),
        wrapped: try WrappedKey(json: try $0.get("wrapped")), uploadedTo: try $0.get("uploaded_to"))
    }
  }

  public func save(_ db: Database, accountID: String) throws {
    try db.execute(
      """
      INSERT INTO sync_key (account_id, data_key, wrapped, uploaded_to) VALUES (?, ?, ?, ?)
      ON CONFLICT (account_id) DO UPDATE SET data_key = excluded.data_key, wrapped = excluded.wrapped,
        uploaded_to = excluded.uploaded_to
      """, accountID, Data(key.key.dangerousCopy()), wrapped.json, uploadedTo)
  }
}
