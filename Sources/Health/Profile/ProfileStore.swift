import Auth
import Foundation
import Storage

/// Reads and writes one account's profile and avatar.
public struct ProfileStore {
  let db: Database
  let account: Account
  let now: Date

  public init(db: Database, account: Account, now: Date) {
    self.db = db
    self.account = account
    self.now = now
  }

  public func load() throws -> Profile {
    let row = try db.queryFirst(
      """
      SELECT p.surname, p.abo, p.rhesus, p.sex, p.birth_date, p.weight_kg, p.region,
             b.sha256, b.mime, b.width, b.height, length(b.data)
      FROM profile p LEFT JOIN blob b ON b.account_id = p.account_id AND b.sha256 = p.avatar_sha256
      WHERE p.account_id = ?
      """, account.id
    ) { row -> Profile in
      var p = Profile()
      p.surname = try row.get(0)
      if let abo: String = try row.get(1), let group = BloodType.Group(rawValue: abo), let rh: String = try row.get(2) {
        p.bloodType = BloodType(group: group, rhesusPositive: rh == "+")
      }
      p.sex = (try row.get(3, as: String?.self)).flatMap(Sex.init(rawValue:))
      p.birthDate = try row.get(4)
      p.weightKg = try row.get(5)
      p.region = Region(rawValue: try row.get(6)) ?? .de
      if let sha: String = try row.get(7) {
        p.avatar = Avatar(
          sha256: sha, mime: try row.get(8), width: try row.get(9), height: try row.get(10), bytes: try row.get(11))
      }
      return p
    }
    return row ?? Profile()
  }

  /// Writes every field of `profile` except the avatar.
  public func save(_ profile: Profile) throws {
    try ensureRow()
    try db.execute(
      """
      UPDATE profile SET surname = ?, abo = ?, rhesus = ?, sex = ?, birth_date = ?, weight_kg = ?, region = ?,
        updated_at = ? WHERE account_id = ?
      """,
      profile.surname, profile.bloodType?.group.rawValue, profile.bloodType.map { $0.rhesusPositive ? "+" : "-" },
      profile.sex?.rawValue, profile.birthDate, profile.weightKg, profile.region.rawValue, now, account.id)
  }

  /// Stores `data` as the avatar if it is a PNG or JPEG within the limits; else throws and keeps
  /// the old one.
  @discardableResult
  public func setAvatar(_ data: Data) throws -> Avatar {
    let header = try AvatarRules.check(data)
    let sha = Crypto.sha256Hex(data)
    try db.transaction { db in
      try ensureRow()
      try db.execute(
        "INSERT OR IGNORE INTO blob (account_id, sha256, mime, width, height, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        account.id, sha, header.mime, header.width, header.height, data, now)
      try db.execute("UPDATE profile SET avatar_sha256 = ?, updated_at = ? WHERE account_id = ?", sha, now, account.id)
      try removeUnusedBlobs()
    }
    return Avatar(sha256: sha, mime: header.mime, width: header.width, height: header.height, bytes: data.count)
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
    try db.transaction { db in
      try db.execute("UPDATE profile SET avatar_sha256 = NULL, updated_at = ? WHERE account_id = ?", now, account.id)
      try removeUnusedBlobs()
    }
  }

  private func ensureRow() throws {
    try db.execute(
      "INSERT OR IGNORE INTO profile (id, account_id, region, updated_at) VALUES (?, ?, 'de', ?)",
      UUID(), account.id, now)
  }

  private func removeUnusedBlobs() throws {
    try db.execute(
      """
      DELETE FROM blob WHERE account_id = ?1
        AND sha256 NOT IN (SELECT avatar_sha256 FROM profile WHERE account_id = ?1 AND avatar_sha256 IS NOT NULL)
      """, account.id)
  }
}
