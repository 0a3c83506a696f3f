import Core
import Foundation
import Storage

/// Local accounts: registration, password checks with lockout, password changes and deletion.
/// Sessions are in `AccountStore+Sessions.swift`.
public final class AccountStore {
  let db: Database
  let hasher: PasswordHasher
  let now: Date

  /// Verified when the email is unknown, so that failure costs one KDF run like a wrong password.
  /// Its password is random bytes nobody kept.
  public static let decoyHash =
    "$scrypt$ln=17,r=8,p=1$mwIuvdgKZoIerVPXJS9R9Q$eX9CxTBBEat14YxS5cKHdGWtcMmmXrO3bIihSpfYCfY"

  public init(db: Database, hasher: PasswordHasher = .standard, now: Date) {
    self.db = db
    self.hasher = hasher
    self.now = now
  }

  /// Whether any account exists in this home (plain `vital` greets a new user otherwise).
  public var isEmpty: Bool {
    get throws { try db.scalar(Int64.self, "SELECT count(*) FROM account") == 0 }
  }

  public func register(email rawEmail: String, name: String?, password: String) async throws -> Account {
    let email = try Email.normalize(rawEmail)
    try PasswordPolicy.check(password)
    if try find(email: email) != nil { throw AuthError.emailTaken }
    let hash = try await hasher.hash(password)
    let account = Account(id: UUID().uuidString.lowercased(), email: email, name: name?.nilIfBlank)
    do {
      try db.execute(
        "INSERT INTO account (id, email, name, password_hash, created_at, failed_logins) VALUES (?, ?, ?, ?, ?, 0)",
        account.id, account.email, account.name, hash, now)
    } catch let error as StorageError where error.code == 2067 {
      throw AuthError.emailTaken  // another process registered it while we were hashing
    }
    return account
  }

  /// Whether this home has an account for `email` (spelt any way the account's email is).
  public func exists(email rawEmail: String) throws -> Bool {
    guard let email = try? Email.normalize(rawEmail) else { return false }
    return try find(email: Email.legacySpelling(rawEmail)) ?? find(email: email) != nil
  }

  /// Checks an email and password. Ten failures in a row lock the account for 15 minutes; an
  /// unknown email runs the KDF too and fails with the same error as a wrong password.
  public func authenticate(email rawEmail: String, password: String) async throws -> Account {
    guard let email = try? Email.normalize(rawEmail),
      let record = try find(email: Email.legacySpelling(rawEmail)) ?? find(email: email)
    else {
      _ = try await hasher.verify(password, against: Self.decoyHash)
      throw AuthError.wrongCredentials
    }
    if let until = record.lockedUntil, until > now {
      throw AuthError.locked(minutes: Int((until.timeIntervalSince(now) / 60).rounded(.up)))
    }
    guard try await hasher.verify(password, against: record.passwordHash) else {
      try recordFailure(record)
      throw AuthError.wrongCredentials
    }
    let rehash = hasher.needsRehash(record.passwordHash) ? try await hasher.hash(password) : nil
    try db.transaction { db in
      try db.execute("UPDATE account SET failed_logins = 0, locked_until = NULL WHERE id = ?", record.account.id)
      if let rehash {
        try db.execute("UPDATE account SET password_hash = ? WHERE id = ?", rehash, record.account.id)
      }
    }
    return record.account
  }

  /// Changes the password after checking the old one, and ends every session of the account.
  public func changePassword(for account: Account, old: String, new: String) async throws {
    try await requirePassword(old, for: account)
    try PasswordPolicy.check(new)
    let hash = try await hasher.hash(new)
    try db.transaction { db in
      try db.execute("UPDATE account SET password_hash = ? WHERE id = ?", hash, account.id)
      try db.execute("DELETE FROM session WHERE account_id = ?", account.id)
    }
  }

  /// Deletes the account and, through ON DELETE CASCADE, every row it owns, in one transaction.
  public func delete(_ account: Account, password: String) async throws {
    try await requirePassword(password, for: account)
    try db.transaction { db in
      try db.execute("DELETE FROM account WHERE id = ?", account.id)
    }
  }

  public func rename(_ account: Account, to name: String?) throws {
    try db.execute("UPDATE account SET name = ? WHERE id = ?", name?.nilIfBlank, account.id)
  }

  func requirePassword(_ password: String, for account: Account) async throws {
    guard let record = try find(email: account.email),
      try await hasher.verify(password, against: record.passwordHash)
    else { throw AuthError.wrongPassword }
  }

  private func recordFailure(_ record: Record) throws {
    try db.transaction { db in
      let (failures, lock) = LoginLockout.afterFailure(
        count: record.failedLogins, lockedUntil: record.lockedUntil, now: now)
      try db.execute(
        "UPDATE account SET failed_logins = ?, locked_until = ? WHERE id = ?",
        failures, lock, record.account.id)
    }
  }

  struct Record {
    let account: Account
    let passwordHash: String
    let failedLogins: Int
    let lockedUntil: Date?
  }

  func find(email: String) throws -> Record? {
    try db.queryFirst(
      "SELECT id, email, name, password_hash, failed_logins, locked_until FROM account WHERE email = ?", email
    ) { row in
      Record(
        account: Account(id: try row.get("id"), email: try row.get("email"), name: try row.get("name")),
        passwordHash: try row.get("password_hash"), failedLogins: try row.get("failed_logins"),
        lockedUntil: try row.get("locked_until"))
    }
  }
}

extension String {
  var nilIfBlank: String? {
    let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }
}
