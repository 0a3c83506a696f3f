import Foundation
import Logging
import PostgresNIO

/// Sessions: one token per logged-in device, kept by its SHA-256.
extension PostgresSyncRepository {
  public func createToken(userID: String, tokenSHA256: String, deviceName: String, now: Date) async throws {
    try await client.query(
      """
      INSERT INTO tokens (token_sha256, user_id, device_name, created_at, last_used_at)
      VALUES (\(tokenSHA256), \(userID), \(deviceName), \(now), \(now))
      """, logger: logger)
  }

  public func user(tokenSHA256: String, now: Date) async throws -> TokenUser? {
    var found: (TokenUser, Date)?
    for try await (id, lastUsed, suspended) in try await client.query(
      """
      SELECT t.user_id, t.last_used_at, u.suspended FROM tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_sha256 = \(tokenSHA256)
      """, logger: logger
    ).decode((String, Date, Bool).self) {
      found = (TokenUser(id: id, suspended: suspended), lastUsed)
    }
    guard let (user, lastUsed) = found else { return nil }
    switch DeviceSession.use(lastUsed: lastUsed, now: now) {
    case .expired:
      try await deleteToken(tokenSHA256: tokenSHA256)
      return nil
    case .touch:
      try await client.query(
        "UPDATE tokens SET last_used_at = \(now) WHERE token_sha256 = \(tokenSHA256)", logger: logger)
    case .fresh: break
    }
    return user
  }

  public func sessions(userID: String) async throws -> [DeviceSession] {
    var sessions: [DeviceSession] = []
    for try await (sha, name, created, lastUsed) in try await client.query(
      """
      SELECT token_sha256, device_name, created_at, last_used_at FROM tokens WHERE user_id = \(userID)
      ORDER BY created_at
      """, logger: logger
    ).decode((String, String, Date, Date).self) {
      sessions.append(
        DeviceSession(id: DeviceSession.id(tokenSHA256: sha), deviceName: name, created: created, lastUsed: lastUsed))
    }
    return sessions
  }

  public func deleteSession(userID: String, id: String) async throws -> Bool {
    let rows = try await client.query(
      """
      DELETE FROM tokens WHERE user_id = \(userID) AND left(token_sha256, \(Int32(DeviceSession.idLength))) = \(id)
      RETURNING 1
      """, logger: logger)
    var deleted = false
    for try await _ in rows.decode(Int.self) { deleted = true }
    return deleted
  }

  public func deleteToken(tokenSHA256: String) async throws {
    try await client.query("DELETE FROM tokens WHERE token_sha256 = \(tokenSHA256)", logger: logger)
  }
}
