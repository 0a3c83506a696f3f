import Storage

extension AccountStore {
  /// Local accounts: a password hash in PHC form, and the failed-login count behind the lockout.
  public static let accounts = Table(
    "account",
    [
      .text("id", "PRIMARY KEY"), .text("email", "NOT NULL UNIQUE"), .text("name"), .text("password_hash", "NOT NULL"),
      .text("created_at", "NOT NULL"), .integer("failed_logins", "NOT NULL DEFAULT 0"), .text("locked_until"),
    ])

  /// Signed-in sessions, kept as the SHA-256 of their token.
  public static let sessions = Table(
    "session",
    [
      .text("token_sha256", "PRIMARY KEY"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("created_at", "NOT NULL"), .text("last_used_at", "NOT NULL"),
    ], indexes: ["session_account": "account_id"])
}

extension AccountStore {
  /// Brings stored emails to their normal form (NFC) where that form is free; returns the
  /// groups of account ids that are one address in normal form and were left apart.
  @discardableResult
  public static func normalizeStoredEmails(_ db: Database) throws -> [[String]] {
    let stored = try db.query("SELECT id, email FROM account ORDER BY created_at, id") {
      (id: try $0.get(0, as: String.self), email: try $0.get(1, as: String.self))
    }
    let (renames, duplicates) = Email.normalizing(stored)
    for rename in renames { try db.execute("UPDATE account SET email = ? WHERE id = ?", rename.email, rename.id) }
    return duplicates
  }

  /// The emails of accounts that are one address in normal form, each group once.
  public static func duplicateEmails(_ db: Database) throws -> [[String]] {
    let stored = try db.query("SELECT id, email FROM account ORDER BY created_at, id") {
      (id: try $0.get(0, as: String.self), email: try $0.get(1, as: String.self))
    }
    let emails = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.email) })
    return Email.normalizing(stored).duplicates.map { $0.compactMap { emails[$0] } }
  }
}
