import AtRest
import Cryptography
import Foundation
import Storage
import Testing

@Suite struct KeyTests {
  @Test func thePassphraseAndTheRecoveryKeyEachOpenTheDataKeyAndNothingElseDoes() throws {
    let key = try SymmetricKey.random()
    let recovery = try RecoveryKey.random()
    let header = try AtRestKeys.header(dataKey: key, passphrase: passphrase, recovery: recovery, hasher: quickHasher)
    #expect(try AtRestKeys.open(header, passphrase: passphrase).dangerousCopy() == key.dangerousCopy())
    #expect(try AtRestKeys.open(header, recovery: recovery).dangerousCopy() == key.dangerousCopy())
    #expect(throws: AtRestError.wrongPassphrase) { try AtRestKeys.open(header, passphrase: passphrase + "!") }
    #expect(throws: AtRestError.wrongRecoveryKey) { try AtRestKeys.open(header, recovery: try RecoveryKey.random()) }
  }

  /// A passphrase typed on a keyboard that composes é differently is the same passphrase.
  @Test func thePassphraseIsReadInNormalForm() throws {
    let key = try SymmetricKey.random()
    let header = try AtRestKeys.header(
      dataKey: key, passphrase: "caf\u{e9} au lait", recovery: nil, hasher: quickHasher)
    #expect(try AtRestKeys.open(header, passphrase: "cafe\u{301} au lait").dangerousCopy() == key.dangerousCopy())
    #expect(throws: AtRestError.noRecoveryKey) { try AtRestKeys.open(header, recovery: try RecoveryKey.random()) }
  }

  @Test func aWrapCopiedFromAnotherDatabaseDoesNotOpen() throws {
    let key = try SymmetricKey.random()
    let one = try AtRestKeys.header(dataKey: key, passphrase: passphrase, recovery: nil, hasher: quickHasher)
    var other = try AtRestKeys.header(dataKey: key, passphrase: passphrase, recovery: nil, hasher: quickHasher)
    other.passphrase = one.passphrase
    #expect(throws: AtRestError.wrongPassphrase) { try AtRestKeys.open(other, passphrase: passphrase) }
  }

  @Test func aRecoveryKeyReadsBackHoweverItIsTyped() throws {
    let key = try RecoveryKey.random()
    let shown = "\(key)"
    #expect(shown.count == 34 && shown.split(separator: "-").count == 7)
    #expect(try RecoveryKey(parsing: shown) == key)
    #expect(try RecoveryKey(parsing: shown.lowercased().replacingOccurrences(of: "-", with: " ")) == key)
    #expect(try RecoveryKey(parsing: shown.replacingOccurrences(of: "-", with: "")) == key)
    let zeroes = try RecoveryKey(parsing: "0000-1111-0000-1111-0000-1111-0000")
    #expect(try RecoveryKey(parsing: "oooo-iiii-OOOO-llll-0000-1111-0000") == zeroes)
    #expect(throws: AtRestError.self) { try RecoveryKey(parsing: String(shown.dropLast())) }
    #expect(throws: AtRestError.self) {
      try RecoveryKey(parsing: shown.replacingOccurrences(of: shown.prefix(1), with: "U"))
    }
  }
}

/// The header's two slots: a change goes to the one not in use first, so a torn write keeps the
/// other, then to the other one, so that no copy keeps the old passphrase.
@Suite struct HeaderTests {
  @Test func aNewPassphraseGoesToBothSlotsOneAfterTheOther() throws {
    let folder = try Folder()
    let (path, key) = try sealedDatabase(in: folder)
    try fillNotes(Database(path: path), marker: "header", count: 50)
    let size = SealedPages.slotSize
    let before = try AtRestHeader.read(fileAt: path)
    let oldSlots = try readBytes(path, at: 0, count: 2 * size)
    let database = SealedDatabase(path: path)
    let newPassphrase = "a new passphrase entirely"
    try database.changePassphrase(key: key, to: newPassphrase, hasher: quickHasher)
    let after = try AtRestHeader.read(fileAt: path)
    #expect(after.header.generation == before.header.generation + 1)
    let newSlots = try readBytes(path, at: 0, count: 2 * size)
    #expect(Array(newSlots[..<size]) == Array(newSlots[size...]), "both slots hold the new header")
    #expect(throws: AtRestError.wrongPassphrase) { try AtRestKeys.open(after.header, passphrase: passphrase) }
    #expect(try AtRestKeys.open(after.header, passphrase: newPassphrase).dangerousCopy() == key.dangerousCopy())

    // Either slot damaged: the other opens, with the new passphrase only.
    for slot in 0..<2 {
      try overwrite(path, at: 0, with: newSlots)
      try overwrite(path, at: slot * size + 90, with: Array(repeating: 0xAA, count: 600))
      let left = try AtRestHeader.read(fileAt: path)
      #expect(left.slot == 1 - slot)
      #expect(try AtRestHeader.damagedSlots(fileAt: path) == [slot])
      #expect(throws: AtRestError.wrongPassphrase) { try AtRestKeys.open(left.header, passphrase: passphrase) }
      #expect(try AtRestKeys.open(left.header, passphrase: newPassphrase).dangerousCopy() == key.dangerousCopy())
    }

    // A crash while the first write was half-way: the slot in use before is the header again,
    // with the old passphrase.
    try overwrite(path, at: 0, with: oldSlots)
    let first = 1 - before.slot
    try overwrite(path, at: first * size, with: Array(newSlots[first * size..<(first + 1) * size]))
    try overwrite(path, at: first * size + 90, with: Array(repeating: 0xAA, count: 600))
    let torn = try AtRestHeader.read(fileAt: path)
    #expect(torn.slot == before.slot)
    #expect(try AtRestKeys.open(torn.header, passphrase: passphrase).dangerousCopy() == key.dangerousCopy())
    // The pages never changed.
    #expect(try SealedPages.check(databaseAt: path).damaged == [])
  }

  @Test func aHeaderNoSlotOfWhichReadsIsDamagedAndANewerOneAsksForAnUpgrade() throws {
    let folder = try Folder()
    let (path, _) = try sealedDatabase(in: folder)
    try overwrite(path, at: 40, with: [1, 2, 3])
    try overwrite(path, at: SealedPages.slotSize + 40, with: [1, 2, 3])
    #expect(throws: AtRestError.damagedHeader) { try AtRestHeader.read(fileAt: path) }

    let (newer, _) = try sealedDatabase(in: folder, name: "newer.sqlite")
    for slot in 0..<2 {
      var bytes = try readBytes(newer, at: slot * SealedPages.slotSize, count: SealedPages.slotSize)
      bytes[16] = 2
      bytes.replaceSubrange((SealedPages.slotSize - 32)..., with: Crypto.sha256(bytes[..<(SealedPages.slotSize - 32)]))
      try overwrite(newer, at: slot * SealedPages.slotSize, with: bytes)
    }
    #expect(throws: AtRestError.newerHeader(version: 2)) { try AtRestHeader.read(fileAt: newer) }
  }

  @Test func aPlainDatabaseIsNotSealedAndASealedOneDoesNotOpenWithoutItsKey() throws {
    let folder = try Folder()
    try fillNotes(Database(path: folder.file("plain.sqlite")), marker: "plain", count: 10)
    #expect(!SealedPages.isSealed(fileAt: folder.file("plain.sqlite")))
    #expect(throws: AtRestError.notSealed) { try AtRestHeader.read(fileAt: folder.file("plain.sqlite")) }

    let (path, key) = try sealedDatabase(in: folder)
    try fillNotes(Database(path: path), marker: "sealed", count: 10)
    SealedPages.forget(databaseAt: path)
    #expect(throws: StorageError.sealed(path: path)) { try Database(path: path) }
    #expect(throws: AtRestError.locked) { try SealedDatabase(path: path).use(try SymmetricKey.random()) }
    try SealedDatabase(path: path).use(key)
    #expect(try Database(path: path).scalar(Int.self, "SELECT count(*) FROM note") == 10)
  }
}

@Suite struct ConversionTests {
  @Test func encryptThenDecryptKeepsEveryRowAndLeavesOneDatabase() throws {
    let folder = try Folder()
    let path = folder.file("home.sqlite")
    try fillNotes(Database(path: path), marker: "MARKER-convert", count: 3000)
    let before = try Database(path: path).query("SELECT id, body FROM note ORDER BY id") {
      "\(try $0.get(0, as: Int.self)) \(try $0.get(1, as: String.self))"
    }
    let database = SealedDatabase(path: path)
    let encrypted = try database.encrypt(passphrase: passphrase, hasher: quickHasher)
    #expect(encrypted.recovery != nil)
    #expect(database.isSealed && !fileHolds(path, "MARKER-convert"))
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      !$0.hasPrefix("home.sqlite-")
    }
    #expect(files == ["home.sqlite"], "no copy is left beside it")
    let sealed = try Database(path: path)
    #expect(
      try sealed.query("SELECT id, body FROM note ORDER BY id") {
        "\(try $0.get(0, as: Int.self)) \(try $0.get(1, as: String.self))"
      } == before)
    #expect(try sealed.scalar(String.self, "PRAGMA journal_mode") == "wal")

    // Not while another connection has it open.
    #expect(throws: AtRestError.inUse) { try database.decrypt() }
    withExtendedLifetime(sealed) {}
  }

  @Test func decryptWritesAPlainFileWithTheSameRows() throws {
    let folder = try Folder()
    let (path, _) = try sealedDatabase(in: folder)
    try fillNotes(Database(path: path), marker: "MARKER-decrypt", count: 1000)
    try SealedDatabase(path: path).decrypt()
    #expect(!SealedPages.isSealed(fileAt: path))
    #expect(fileHolds(path, "MARKER-decrypt"))
    let plain = try Database(path: path)
    #expect(try plain.scalar(Int.self, "SELECT count(*) FROM note") == 1000)
    #expect(try plain.integrityProblems() == [])
  }
}
