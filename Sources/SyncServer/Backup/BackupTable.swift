/// What a server backup holds: each of the server's tables with its columns in a fixed order,
/// the same for SQLite and PostgreSQL, so that a backup of one restores into the other.
/// Tokens are kept by their SHA-256 alone, passwords as scrypt hashes, and an encrypted account's
/// records and blobs as the ciphertext the server holds, with its wrapped key.
public enum BackupTable: String, CaseIterable, Sendable {
  // In the order a restore needs them: users before what points at them.
  case users, tokens, records, blobs, invites

  public enum Kind: Sendable { case text, int, bool, date, bytes }

  public struct Column: Sendable {
    public let name: String
    public let kind: Kind
    public let optional: Bool
  }

  public var columns: [Column] {
    func c(_ name: String, _ kind: Kind = .text, optional: Bool = false) -> Column {
      Column(name: name, kind: kind, optional: optional)
    }
    switch self {
    case .users:
      return [
        c("id"), c("email"), c("password_hash"), c("created_at", .date), c("failed_logins", .int),
        c("locked_until", .date, optional: true), c("sync_key", optional: true), c("sync_key_id", optional: true),
        c("stored_bytes", .int), c("record_count", .int), c("last_sync_at", .date, optional: true),
        c("suspended", .bool),
      ]
    case .tokens:
      return [c("token_sha256"), c("user_id"), c("device_name"), c("created_at", .date), c("last_used_at", .date)]
    case .records:
      return [c("user_id"), c("dataset"), c("row_id"), c("fields"), c("seq", .int)]
    case .blobs:
      return [c("user_id"), c("sha256"), c("data", .bytes)]
    case .invites:
      return [c("code_sha256"), c("created_at", .date)]
    }
  }

  public var columnNames: [String] { columns.map(\.name) }
}
