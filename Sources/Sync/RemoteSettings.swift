import Foundation
import Storage

/// The server one local account syncs with, its bearer token and the sync cursor.
public struct RemoteSettings: Sendable {
  public var url: String
  public var token: String?
  public var cursor: String?
  public var lastSync: Date?

  public init(url: String, token: String? = nil, cursor: String? = nil, lastSync: Date? = nil) {
    self.url = url
    self.token = token
    self.cursor = cursor
    self.lastSync = lastSync
  }

  public static func load(_ db: Database, accountID: String) throws -> RemoteSettings? {
    try db.queryFirst("SELECT url, token, cursor, last_sync FROM sync_remote WHERE account_id = ?", accountID) {
      RemoteSettings(
        url: try $0.get("url"), token: try $0.get("token"), cursor: try $0.get("cursor"),
        lastSync: try $0.get("last_sync"))
    }
  }

  public func save(_ db: Database, accountID: String) throws {
    try db.execute(
      """
      INSERT INTO sync_remote (account_id, url, token, cursor, last_sync) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (account_id) DO UPDATE SET url = excluded.url, token = excluded.token,
        cursor = excluded.cursor, last_sync = excluded.last_sync
      """, accountID, url, token, cursor, lastSync)
  }
}
