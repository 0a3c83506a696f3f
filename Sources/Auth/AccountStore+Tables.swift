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
