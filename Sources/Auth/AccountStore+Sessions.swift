import Core
import Cryptography
import Foundation
import Storage

extension AccountStore {
  /// Sessions end after this long without use.
  public static let sessionLifetime: TimeInterval = 30 * 24 * 3600

  /// Starts a session and returns its token: 32 random bytes, hex. Only its SHA-256 is stored.
  public func startSession(for account: Account) throws -> String {
    let token = try Crypto.randomBytes(32).map { String(format: "%02x", $0) }.joined()
    try db.execute(
      "INSERT INTO session (token_sha256, account_id, created_at, last_used_at) VALUES (?, ?, ?, ?)",
      Self.digest(token), account.id, now, now)
    return token
  }

  /// The account a token belongs to; refreshes its last use. Expired sessions are removed.
  public func account(forToken token: String) throws -> Account {
    let digest = Self.digest(token)
    let found = try db.queryFirst(
      """
      SELECT a.id, a.email, a.name, s.last_used_at FROM session s JOIN account a ON a.id = s.account_id
      WHERE s.token_sha256 = ?
      """, digest
    ) { row in
      (
        Account(id: try row.get("id"), email: try row.get("email"), name: try row.get("name")),
        try row.get("last_used_at", as: Date.self)
      )
    }
    guard let (account, lastUsed) = found else { throw AuthError.notLoggedIn }
    if now.timeIntervalSince(lastUsed) > Self.sessionLifetime {
      try endSession(token: token)
      throw AuthError.sessionExpired
    }
    // Writing on every command would churn the WAL for nothing: a minute's precision is plenty.
    if now.timeIntervalSince(lastUsed) > 60 {
      try db.execute("UPDATE session SET last_used_at = ? WHERE token_sha256 = ?", now, digest)
    }
    return account
  }

  public func endSession(token: String) throws {
    try db.execute("DELETE FROM session WHERE token_sha256 = ?", Self.digest(token))
  }

  static func digest(_ token: String) -> String {
    Crypto.sha256Hex(Data(token.utf8))
  }
}
