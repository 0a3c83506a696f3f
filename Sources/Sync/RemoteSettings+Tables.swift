import Storage

extension RemoteSettings {
  /// The server each account syncs with, its token, and how far it has pulled.
  public static let table = Table(
    "sync_remote", comment: "The server each account syncs with.",
    [
      .text("account_id", "PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE"), .text("url", "NOT NULL"),
      .text("token"), .text("cursor"), .text("last_sync"),
    ])
}

extension SyncKey {
  public static let table = Table(
    "sync_key",
    comment: """
      End-to-end encrypted sync: the account's data key (never printed, never sent unwrapped), its
      passphrase-wrapped form as the server keeps it, and the server it was last sent to.
      """,
    [
      .text("account_id", "PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE"), .blob("data_key", "NOT NULL"),
      .text("wrapped", "NOT NULL"), .text("uploaded_to"),
    ])
}
