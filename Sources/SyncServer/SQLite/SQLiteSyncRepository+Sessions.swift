import Foundation
import Storage

/// Sessions: one token per logged-in device, kept by its SHA-256.
extension SQLiteSyncRepository {
  public func createToken(userID: String, tokenSHA256: String, deviceName: String, now: Date) throws {
    try db.execute(
      "INSERT INTO tokens (token_sha256, user_id, device_name, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)",
      tokenSHA256, userID, deviceName, now, now)
  }

  public func sessions(userID: String) throws -> [DeviceSession] {
    try db.query(
      "SELECT token_sha256, device_name, created_at, last_used_at FROM tokens WHERE user_id = ? ORDER BY created_at",
      userID
    ) { row in
      DeviceSession(
        id: DeviceSession.id(tokenSHA256: try row.get("token_sha256")), deviceName: try row.get("device_name"),
        created: try row.get("created_at"), lastUsed: try row.get("last_used_at"))
    }
  }

  public func deleteSession(userID: String, id: String) throws -> Bool {
    try db.execute(
      "DELETE FROM tokens WHERE user_id = ? AND substr(token_sha256, 1, ?) = ?", userID, DeviceSession.idLength, id)
    return db.changes > 0
  }

  public func user(tokenSHA256: String, now: Date) throws -> TokenUser? {
    guard
      let (user, lastUsed) = try db.queryFirst(
        """
        SELECT t.user_id, t.last_used_at, u.suspended FROM tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_sha256 = ?
        """, tokenSHA256,
        row: {
          (
            TokenUser(id: try $0.get(0, as: String.self), suspended: try $0.get(2, as: Bool.self)),
            try $0.get(1, as: Date.self)
          )
        })
    else { return nil }
    switch DeviceSession.use(lastUsed: lastUsed, now: now) {
    case .expired:
      try db.execute("DELETE FROM tokens WHERE token_sha256 = ?", tokenSHA256)
      return nil
    case .touch: try db.execute("UPDATE tokens SET last_used_at = ? WHERE token_sha256 = ?", now, tokenSHA256)
    case .fresh: break
    }
    return user
  }

  public func deleteToken(tokenSHA256: String) throws {
    try db.execute("DELETE FROM tokens WHERE token_sha256 = ?", tokenSHA256)
  }
}
