import Replication
import Storage

extension ProfileStore {
  public static let blobs = Table(
    "blob", comment: "Binary data (avatars), stored once per account by SHA-256.",
    [
      .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"), .text("sha256", "NOT NULL"),
      .text("mime", "NOT NULL"), .integer("width", "NOT NULL"), .integer("height", "NOT NULL"),
      .blob("data", "NOT NULL"), .text("created_at", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, sha256)"])

  public static let profiles = Table(
    "profile",
    comment: """
      One per account; its id is derived from the email, so every device of a user has the same one.
      avatar_sha256 points at blob(account_id, sha256) but is no foreign key: synced rows may
      arrive in any order.
      """,
    Profile.Stored.shape.tableColumns(adding: [
      // One profile per account.
      (after: "id", .text("account_id", "NOT NULL UNIQUE REFERENCES account(id) ON DELETE CASCADE")),
      (after: "avatar_sha256", .text("updated_at", "NOT NULL")),
    ]), constraints: ["PRIMARY KEY (account_id, id)"])
}

extension Dataset {
  /// Avatar bytes travel on their own (`/v1/blobs`), not as a field.
  public static let blob = Dataset(
    ProfileStore.blobs, key: "sha256", stamp: "created_at", local: ["data"],
    rules: [
      "mime": .oneOf(["image/png", "image/jpeg"]), "width": .integer(1...100_000), "height": .integer(1...100_000),
    ])
  public static let profile = Dataset(
    ProfileStore.profiles, stamp: "updated_at",
    rules: Profile.Stored.shape.rules)
}
