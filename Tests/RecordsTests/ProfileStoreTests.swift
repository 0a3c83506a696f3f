import Auth
import Core
import Foundation
import Schema
import Storage
import TestImages
import Testing

@testable import Records

@Suite struct ProfileStoreTests {
  let db: Database
  let ann = Account(id: "ann-id", email: "ann@example.org", name: nil)
  let bob = Account(id: "bob-id", email: "bob@example.org", name: nil)
  let now = ISO8601.date(from: "2026-12-01T08:00:00Z")!

  init() throws {
    db = try Database.inMemory()
    try VitalSchema.migrator.migrate(db)
    for account in [ann, bob] {
      try db.execute(
        "INSERT INTO account (id, email, password_hash, created_at) VALUES (?, ?, 'x', ?)", account.id, account.email,
        now)
    }
  }

  func store(_ account: Account) -> ProfileStore { ProfileStore(db: db, account: account, now: now) }

  @Test func aNewProfileHasDefaultsAndSavesEveryField() throws {
    #expect(try store(ann).load() == Profile())
    var p = Profile()
    p.surname = "Müller"
    p.bloodType = BloodType("AB-")
    p.sex = .female
    p.birthDate = "1990-05-01"
    p.weightKg = 61.5
    p.region = .uk
    try store(ann).save(p)
    #expect(try store(ann).load() == p)
    #expect(try db.scalar(String.self, "SELECT abo || rhesus FROM profile") == "AB-")
  }

  @Test func avatarsAreStoredOnceAndKeptWhenARefusalComes() throws {
    let png = TestImages.png(width: 4, height: 3)
    let avatar = try store(ann).setAvatar(png)
    #expect(avatar.width == 4 && avatar.height == 3 && avatar.bytes == png.count && avatar.mime == "image/png")
    try store(ann).setAvatar(png)
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM blob") == 1)
    #expect(throws: AvatarError.notAnImage) { try store(ann).setAvatar(Data("hello".utf8)) }
    #expect(try store(ann).avatarData() == png)
    #expect(try store(ann).load().avatar == avatar)
  }

  @Test func replacingAndClearingRemoveTheOldBytes() throws {
    try store(ann).setAvatar(TestImages.png(width: 4, height: 3))
    try store(ann).setAvatar(TestImages.jpeg(width: 40, height: 30))
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM blob") == 1)
    #expect(try store(ann).load().avatar?.mime == "image/jpeg")
    try store(ann).clearAvatar()
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM blob") == 0)
    #expect(throws: AvatarError.none) { try store(ann).avatarData() }
  }

  @Test func twoAccountsNeverSeeEachOthersProfileOrAvatar() throws {
    var p = Profile()
    p.bloodType = BloodType("O-")
    try store(ann).save(p)
    try store(ann).setAvatar(TestImages.png(width: 2, height: 2))
    #expect(try store(bob).load() == Profile())
    #expect(throws: AvatarError.none) { try store(bob).avatarData() }
    // The same picture for both is two rows, each owned by its account.
    try store(bob).setAvatar(TestImages.png(width: 2, height: 2))
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM blob") == 2)
  }

  @Test func avatarFilesAreReadWithinTheLimit() throws {
    let folder = NSTemporaryDirectory() + "/vital-avatar-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(throws: AvatarError.missing(folder + "/none.png")) { try AvatarRules.read(path: folder + "/none.png") }
    #expect(throws: AvatarError.notAFile(folder)) { try AvatarRules.read(path: folder) }
    let big = folder + "/big.jpg"
    #expect(FileManager.default.createFile(atPath: big, contents: Data(count: 6 << 20)))
    #expect(throws: AvatarError.tooLarge(bytes: 6 << 20)) { try AvatarRules.read(path: big) }
  }
}
