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
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL UNIQUE REFERENCES account(id) ON DELETE CASCADE"),
      .text("name"), .text("surname"), .text("abo", "CHECK (abo IN ('A', 'B', 'AB', 'O'))"),
      .text("rhesus", "CHECK (rhesus IN ('+', '-'))"), .text("sex", "CHECK (sex IN ('female', 'male'))"),
      .text("birth_date"), .real("weight_kg", "CHECK (weight_kg > 0)"),
      .text("region", "NOT NULL DEFAULT 'de' CHECK (region IN ('de', 'us', 'uk'))"), .text("avatar_sha256"),
      .text("updated_at", "NOT NULL"),
    ], constraints: ["PRIMARY KEY (account_id, id)"])
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
    rules: [
      "name": .text(maxBytes: 500), "surname": .text(maxBytes: 500), "abo": .oneOf(["A", "B", "AB", "O"]),
      "rhesus": .oneOf(["+", "-"]), "sex": .oneOf(["female", "male"]), "birth_date": .day(years: 1900...2200),
      "weight_kg": .number(1...700), "region": .oneOf(Region.allCases.map(\.rawValue)), "avatar_sha256": .sha256,
    ])
}
