import Core
import Cryptography
import Foundation
import Replication
import Storage

/// Reads and writes one account's profile and avatar.
public struct ProfileStore: AccountScoped {

  public let scope: AccountScope

  public init(_ scope: AccountScope) { self.scope = scope }

  /// The profile's record id, the same on every device of the same email, so that syncing
  /// two devices leaves one profile, not one per device.
  package var profileID: String { "profile-" + Crypto.sha256Hex(Data(account.email.utf8)).prefix(32) }

  public func load() throws -> Profile {
    let row = try db.queryFirst(
      """
      SELECT \(Profile.Stored.shape.columns.map { "p." + Table.quoted($0.name) }.joined(separator: ", ")),
             b.sha256, b.mime, b.width, b.height, length(b.data) AS bytes
      FROM profile p LEFT JOIN blob b ON b.account_id = p.account_id AND b.sha256 = p.avatar_sha256
      WHERE p.account_id = ?
      """, account.id
    ) { row -> Profile in
      var p = Profile(try Profile.Stored.shape.record(row))
      if let sha: String = try row.get("sha256") {
        p.avatar = Avatar(
          sha256: sha, mime: try row.get("mime"), width: try row.get("width"), height: try row.get("height"),
          bytes: try row.get("bytes"))
      }
      return p
    }
    guard var profile = row else { return Profile() }
    let written = try replica.written(.profile, id: profileID)
    profile.regionChosen = profile.region != .de || written.contains("region")
    return profile
  }

  /// Writes the fields of `profile` (except the avatar) that differ from what is stored, or,
  /// for a new profile, from the defaults: a device only ever sends what its user changed, so
  /// it cannot overwrite another device's edits with blanks.
  /// `chosen` fields are written even when they hold the default (a region of `de` said on
  /// purpose is known, where one never said is not).
  public func save(_ profile: Profile, chosen: Set<String> = []) throws {
    let shape = Profile.Stored.shape
    let before = shape.fields((try exists() ? try load() : Profile()).stored(id: profileID), Profile.Stored.edited)
    let changed = shape.fields(profile.stored(id: profileID), Profile.Stored.edited).filter {
      before[$0.key] != $0.value || chosen.contains($0.key)
    }
    if changed.isEmpty { return }
    try replica.write(.profile, id: profileID, changed)
  }

  private func exists() throws -> Bool {
    try db.scalar(Int.self, "SELECT count(*) FROM profile WHERE account_id = ?", account.id) == 1
  }

  /// Stores `data` as the avatar if it is a PNG or JPEG within the limits; else throws and keeps
  /// the old one.
  @discardableResult
  public func setAvatar(_ data: Data) throws -> Avatar {
    let header = try AvatarRules.check(data)
    let sha = Crypto.sha256Hex(data)
    try db.transaction { _ in
      if try !replica.exists(.blob, id: sha) {
        try replica.write(
          .blob, id: sha,
          [
            "mime": .text(header.mime), "width": .integer(Int64(header.width)),
            "height": .integer(Int64(header.height)),
          ],
          untracked: ["data": .blob(data)])
      }
      try writeAvatarReference(sha)
    }
    return Avatar(sha256: sha, mime: header.mime, width: header.width, height: header.height, bytes: data.count)
  }

  private func writeAvatarReference(_ sha: String?) throws {
    var stored = Profile.Stored()
    stored.avatarSHA256 = sha
    // A new profile names its region too: the column has no default a synced insert could use.
    let fields: [PartialKeyPath<Profile.Stored>] = try exists() ? [\.avatarSHA256] : [\.region, \.avatarSHA256]
    try replica.write(.profile, id: profileID, Profile.Stored.shape.fields(stored, of: fields))
    try deleteUnusedBlobs()
  }

  /// Deletes, for every device, the blobs no profile points at and no undo could bring back
  /// (a server then collects their bytes): at once when this device replaces the avatar, and
  /// for those here since before `createdBefore` at each sync (a replaced avatar kept for undo,
  /// or one another device's concurrent change left behind). Not sooner at a sync: another
  /// device's new avatar may arrive before the profile change that points at it.
  public func deleteUnusedBlobs(createdBefore: Date? = nil) throws {
    try replica.deleteForGood(
      .blob, where: "sha256 NOT IN (SELECT value FROM json_each(?)) AND created_at < ?", try keptBlobs(),
      createdBefore ?? .distantFuture)
  }

  /// The stored avatar bytes, exactly as they were set.
  public func avatarData() throws -> Data {
    let data = try db.scalar(
      Data.self,
      "SELECT b.data FROM profile p JOIN blob b ON b.account_id = p.account_id AND b.sha256 = p.avatar_sha256 WHERE p.account_id = ?",
      account.id)
    guard let data else { throw AvatarError.none }
    return data
  }

  public func clearAvatar() throws {
    try db.transaction { _ in try writeAvatarReference(nil) }
  }

  /// The blobs that stay, as a JSON array: the profile's avatar, and every avatar an undo could
  /// bring back.
  private func keptBlobs() throws -> String {
    var kept = try ChangeJournal(db: db, accountID: account.id).replacedValues(
      .profile, field: Profile.Stored.shape.name(of: \.avatarSHA256))
    if let current = try db.scalar(String.self, "SELECT avatar_sha256 FROM profile WHERE account_id = ?", account.id) {
      kept.insert(current)
    }
    return "[" + kept.sorted().map(JSONText.quote).joined(separator: ",") + "]"
  }
}
