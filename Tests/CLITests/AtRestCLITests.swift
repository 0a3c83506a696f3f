import Foundation
import Testing

/// The database encrypted at rest, as a person meets it: `vital db encrypt`, `unlock`, `lock`,
/// a new passphrase, the recovery key, `decrypt`, `db check` on a damaged file.
@Suite struct AtRestCLITests {
  let home: VitalHome
  let phrase = "juniper kettle 1942 lighthouse"
  let marker = "MARKER\(UUID().uuidString.prefix(6))"

  init() throws {
    home = try VitalHome()
    home.environment["VITAL_NOW"] = "2026-11-20T10:00:00Z"
    try #require(
      try home.run(
        ["account", "register", "--email", "ann@example.org", "--password-stdin"],
        stdin: "lilac harbour 1987 teaspoon\n"
      )
      .status == 0)
    let added = try home.run([
      "donor", "add", "--at", "2026-10-01T09:00", "--place", "Praxis \(marker)", "--hb", "13.9",
    ])
    try #require(added.status == 0, "\(added.stderr)")
    try #require(try home.run(["meds", "add", "Pill\(marker)", "--at", "08:00", "--stock", "20"]).status == 0)
    try #require(try home.run(["cycle", "note", "--date", "2026-11-18", "--text", "felt \(marker)"]).status == 0)
  }

  var database: String { home.home + "/vital.sqlite" }

  /// Encrypts the home and keeps it openable for the commands that follow: the kernel keyring
  /// where it works here, else a passphrase file. Returns the recovery key.
  @discardableResult
  func encrypt() throws -> String {
    let run = try home.run(["db", "encrypt", "--passphrase-stdin", "--json"], stdin: "\(phrase)\n")
    try #require(run.status == 0, "\(run.stderr)")
    let object = try #require(run.object)
    if object["unlocked_until"] is NSNull { usePassphraseFile(phrase) }
    return try #require(object["recovery_key"] as? String)
  }

  func usePassphraseFile(_ text: String) {
    let file = home.root + "/passphrase"
    _ = FileManager.default.createFile(
      atPath: file, contents: Data((text + "\n").utf8), attributes: [.posixPermissions: 0o600])
    home.environment["VITAL_PASSPHRASE_FILE"] = file
  }

  var keyringWorks: Bool { home.environment["VITAL_PASSPHRASE_FILE"] == nil }

  func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

  /// Whether the database file still holds `before`. A failed `#expect(a == b)` of two Data
  /// values is diffed byte by byte, which on a database file runs for hours: compared here.
  func unchanged(_ before: Data) -> Bool { bytes(database) == before }

  func export() throws -> String {
    let run = try home.run(["export", "--format", "json"])
    try #require(run.status == 0, "\(run.stderr)")
    // The export ends in a checksum over what precedes it and names when it was made.
    return run.stdout
  }

  @Test func anEncryptedHomeKeepsEveryRecordAndShowsNoneOnTheDisk() throws {
    let before = try export()
    #expect(bytes(database).range(of: Data(marker.utf8)) != nil, "the plain file holds the marker")
    let recovery = try encrypt()
    #expect(recovery.range(of: #"^[0-9A-Z]{4}(-[0-9A-Z]{4}){6}$"#, options: .regularExpression) != nil)
    for file in try FileManager.default.contentsOfDirectory(atPath: home.home) {
      #expect(bytes(home.home + "/" + file).range(of: Data(marker.utf8)) == nil, "\(file) holds a record in the clear")
    }
    #expect(try export() == before)
    let history = try home.run(["donor", "history", "--json"])
    #expect(history.status == 0 && history.stdout.contains("Praxis \(marker)"))

    // Backups: encrypted with the same key, or plain when asked.
    let sealedCopy = home.root + "/copy.sqlite"
    let backup = try home.run(["db", "backup", sealedCopy, "--json"])
    #expect(backup.status == 0 && backup.object?["encrypted"] as? Bool == true, "\(backup.stderr)")
    #expect(bytes(sealedCopy).range(of: Data(marker.utf8)) == nil)
    let plainCopy = home.root + "/plain.sqlite"
    #expect(try home.run(["db", "backup", plainCopy, "--plain"]).status == 0)
    #expect(bytes(plainCopy).range(of: Data(marker.utf8)) != nil)
    // Without secrets, the encrypted copy is opened and rewritten under its key.
    let lean = home.root + "/lean.sqlite"
    let leaned = try home.run(["db", "backup", lean, "--without-secrets"])
    #expect(leaned.status == 0, "\(leaned.stderr)")
    #expect(bytes(lean).range(of: Data(marker.utf8)) == nil)

    let check = try home.run(["db", "check", "--json"])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.object?["encrypted"] as? Bool == true)
    #expect((check.object?["pages_checked"] as? Int ?? 0) > 10)
  }

  @Test func aLockedHomeRefusesEveryCommandAndWritesNothing() throws {
    try encrypt()
    try #require(keyringWorks, "the kernel keyring is unavailable here")
    let locked = try home.run(["lock"])
    #expect(locked.status == 0 && locked.stdout.contains("locked"), "\(locked.stderr)")
    let before = bytes(database)
    for arguments in [["donor", "history"], ["meds", "take", "Pill\(marker)"], []] {
      expectCleanError(try home.run(arguments), mentioning: "the database is locked; run 'vital unlock'")
    }
    #expect(unchanged(before), "the database file was written")

    expectCleanError(
      try home.run(["unlock", "--passphrase-stdin"], stdin: "not the passphrase\n"), mentioning: "does not open")
    let unlocked = try home.run(["unlock", "--for", "2s", "--passphrase-stdin"], stdin: phrase + "\n")
    #expect(unlocked.status == 0 && unlocked.stdout.contains("unlocked until"), "\(unlocked.stderr)")
    #expect(try home.run(["donor", "history"]).status == 0)
    Thread.sleep(forTimeInterval: 3)
    let expired = try home.run(["donor", "history"])
    expectCleanError(expired, mentioning: "vital unlock")
    #expect(unchanged(before), "the database file was written")
    let lockedAlready = try home.run(["lock"])
    #expect(lockedAlready.status == 0 && lockedAlready.stdout.contains("locked already"), "\(lockedAlready.stdout)")
    #expect(try home.run(["unlock", "--passphrase-stdin"], stdin: phrase + "\n").status == 0)
    #expect(try home.run(["donor", "history"]).status == 0)
    let vague = try home.run(["unlock", "--for", "8 hours"], stdin: phrase + "\n")
    #expect(
      vague.status == 64 && vague.stderr.contains("a whole number and a unit, from 1s to 366d"), "\(vague.stderr)")
  }

  /// Where the keyring cannot keep keys and there is no terminal to ask on, a command says how
  /// to go on; a passphrase file opens it.
  @Test func withoutTheKeyringAScriptNamesAPassphraseFile() throws {
    try encrypt()
    home.environment["VITAL_KEYRING"] = "none"
    home.environment["VITAL_PASSPHRASE_FILE"] = nil
    expectCleanError(try home.run(["donor", "history"]), mentioning: "VITAL_KEYRING=none", "VITAL_PASSPHRASE_FILE")
    expectCleanError(
      try home.run(["unlock", "--passphrase-stdin"], stdin: phrase + "\n"), mentioning: "VITAL_PASSPHRASE_FILE")
    usePassphraseFile("not it at all")
    expectCleanError(try home.run(["donor", "history"]), mentioning: "does not open")
    usePassphraseFile(phrase)
    let history = try home.run(["donor", "history", "--json"])
    #expect(history.status == 0 && history.stdout.contains(marker), "\(history.stderr)")
    home.environment["VITAL_PASSPHRASE_FILE"] = home.root + "/missing"
    expectCleanError(try home.run(["donor", "history"]), mentioning: "VITAL_PASSPHRASE_FILE")
  }

  /// A new passphrase, then the recovery key, then back to plain: the records are the same.
  @Test func passphraseRecoveryAndDecryptKeepTheRecords() throws {
    let before = try export()
    let recovery = try encrypt()
    let other = "quartz meadow 77 violin"
    let changed = try home.run(["db", "passphrase", "--passphrase-stdin"], stdin: "\(phrase)\n\(other)\n")
    #expect(changed.status == 0, "\(changed.stderr)")
    expectCleanError(
      try home.run(["db", "passphrase", "--passphrase-stdin"], stdin: "\(phrase)\n\(other)\n"),
      mentioning: "does not open")
    if !keyringWorks { usePassphraseFile(other) }
    #expect(try export() == before)

    expectCleanError(
      try home.run(
        ["db", "recover", "--recovery-key", "0000-0000-0000-0000-0000-0000-0000", "--passphrase-stdin"],
        stdin: "a\na\n"), mentioning: "recovery key does not open")
    expectCleanError(
      try home.run(["db", "recover", "--recovery-key", "not a key", "--passphrase-stdin"], stdin: "a\na\n"),
      mentioning: "not a recovery key")
    let third = "saffron tunnel 318 harbour"
    let recovered = try home.run(
      ["db", "recover", "--recovery-key", recovery.lowercased(), "--passphrase-stdin"], stdin: "\(third)\n\(third)\n")
    #expect(recovered.status == 0, "\(recovered.stderr)")
    if !keyringWorks { usePassphraseFile(third) }
    #expect(try export() == before)

    expectCleanError(try home.run(["db", "decrypt"]), mentioning: "--yes")
    let decrypted = try home.run(["db", "decrypt", "--yes"])
    #expect(decrypted.status == 0, "\(decrypted.stderr)")
    home.environment["VITAL_PASSPHRASE_FILE"] = nil
    #expect(bytes(database).range(of: Data(marker.utf8)) != nil)
    #expect(try export() == before)
    expectCleanError(try home.run(["unlock", "--passphrase-stdin"], stdin: third + "\n"), mentioning: "not encrypted")
    expectCleanError(try home.run(["lock"]), mentioning: "not encrypted")
  }

  @Test func refusalsSayWhatToDo() throws {
    expectCleanError(
      try home.run(["db", "encrypt", "--passphrase-stdin"], stdin: "short\nshort\n"),
      mentioning: "passphrase is too short")
    #expect(!bytes(database).starts(with: Data("vital-sealed-db".utf8)), "nothing was encrypted")
    try encrypt()
    expectCleanError(
      try home.run(["db", "encrypt", "--passphrase-stdin"], stdin: "\(phrase)\n"), mentioning: "already encrypted")
  }

  /// A page changed, two swapped, the file cut short, the header of another home: each is one
  /// error line, and `vital db check` names the pages.
  @Test func damageIsNamedByPage() throws {
    try encrypt()
    let original = bytes(database)
    func page(_ n: Int) -> Range<Int> { (4096 + (n - 1) * 4096)..<(4096 + n * 4096) }
    func write(_ data: Data) { _ = FileManager.default.createFile(atPath: database, contents: data) }
    func checked() throws -> Run { try home.run(["db", "check", "--json"]) }

    var flipped = original
    flipped[page(3).lowerBound + 100] ^= 0x20
    write(flipped)
    var check = try checked()
    #expect(check.status == 1 && check.object?["damaged_pages"] as? [Int] == [3], "\(check.stdout) \(check.stderr)")
    #expect(check.stderr.contains("damaged at page 3"))

    var swapped = original
    swapped.replaceSubrange(page(4), with: original[page(5)])
    swapped.replaceSubrange(page(5), with: original[page(4)])
    write(swapped)
    check = try checked()
    #expect(check.object?["damaged_pages"] as? [Int] == [4, 5])

    var first = original
    first[page(1).lowerBound + 3000] ^= 1
    write(first)
    expectCleanError(try home.run(["donor", "history"]), mentioning: "damaged at page 1")

    write(original.prefix(original.count - 1000))
    check = try checked()
    #expect(check.status == 1)
    #expect((check.object?["damaged_pages"] as? [Int])?.count == 1)

    let otherHome = try VitalHome()
    #expect(
      try otherHome.run(
        ["account", "register", "--email", "bo@example.org", "--password-stdin"], stdin: "lilac harbour 1987 teaspoon\n"
      ).status == 0)
    let other = try otherHome.run(["db", "encrypt", "--passphrase-stdin"], stdin: "\(phrase)\n")
    try #require(other.status == 0)
    _ = try otherHome.run(["lock"])
    let otherHeader = bytes(otherHome.home + "/vital.sqlite").prefix(4096)
    write(otherHeader + original.dropFirst(4096))
    home.environment["VITAL_PASSPHRASE_FILE"] = nil
    usePassphraseFile(phrase)
    check = try checked()
    #expect(check.status == 1)
    #expect(check.stderr.contains("header belongs to another database"), "\(check.stderr)")
    write(original)
    #expect(try checked().status == 0)
  }

  /// docs/at-rest.md is enough to read the file: Python's scrypt and AES-GCM open every page, and
  /// pages Python seals again open in Vital.
  @Test func thePublishedFormatReadsAndWritesWithoutVital() throws {
    try encrypt()
    try #require(try home.run(["lock"]).status == 0 || !keyringWorks)
    let passphraseFile = home.root + "/python-passphrase"
    _ = FileManager.default.createFile(atPath: passphraseFile, contents: Data((phrase + "\n").utf8))
    let opened =
      try JSONSerialization.jsonObject(
        with: try runChecker("check-at-rest", ["open", database, passphraseFile, "SELECT place FROM donation"]))
      as? [String: Any]
    #expect(opened?["integrity"] as? String == "ok")
    #expect((opened?["rows"] as? [[String]])?.first?.first == "Praxis \(marker)")

    let before = bytes(database)
    _ = try runChecker("check-at-rest", ["reseal", database, passphraseFile])
    #expect(bytes(database) != before, "every page was sealed again under a fresh nonce")
    usePassphraseFile(phrase)
    #expect(try home.run(["db", "check"]).status == 0)
    let history = try home.run(["donor", "history", "--json"])
    #expect(history.status == 0 && history.stdout.contains("Praxis \(marker)"), "\(history.stderr)")
  }

  /// On a terminal: encrypt asks twice and refuses two that differ; where the keyring cannot
  /// keep keys, a command asks for the passphrase and says why, and a wrong one changes nothing.
  @Test(.enabled(if: VitalHome.terminalsAvailable, "no pseudo-terminals here"))
  func onATerminalItAsksAndSaysWhy() throws {
    let differ = try home.runOnTerminal(
      ["db", "encrypt"], answers: [("New passphrase: ", phrase), ("Repeat the new passphrase: ", phrase + "x")])
    #expect(differ.contains("error: the two passphrases differ"), "\(differ)")
    #expect(!bytes(database).starts(with: Data("vital-sealed-db".utf8)))
    let asked = try home.runOnTerminal(
      ["db", "encrypt"], answers: [("New passphrase: ", phrase), ("Repeat the new passphrase: ", phrase)])
    #expect(asked.contains("Recovery key"), "\(asked)")

    home.environment["VITAL_KEYRING"] = "none"
    let wrong = try home.runOnTerminal(["donor", "history"], answers: [("Passphrase: ", "not it")])
    #expect(wrong.contains("VITAL_KEYRING=none") && wrong.contains("does not open"), "\(wrong)")
    let right = try home.runOnTerminal(["donor", "history"], answers: [("Passphrase: ", phrase)])
    #expect(right.contains("Praxis \(marker)"), "\(right)")
  }

  /// The rest of Vital on an encrypted home: the log while another program holds the database
  /// open, undo, and the Apple Health import's writer thread and totals.
  @Test func theLogUndoAndImportsWorkEncrypted() throws {
    try encrypt()
    try #require(keyringWorks, "the kernel keyring is unavailable here")
    let later = "LATER\(UUID().uuidString.prefix(6))"
    // vital web keeps a connection open, so the log stays on the disk between commands.
    let web = try WebProcess(home)
    let noted = try home.run(["cycle", "note", "--date", "2026-11-19", "--text", "felt \(later)"])
    #expect(noted.status == 0, "\(noted.stderr)")
    let log = bytes(database + "-wal")
    #expect(log.count > 4096, "the log holds pages while vital web has the database open")
    #expect(log.range(of: Data(later.utf8)) == nil)
    #expect(log.range(of: Data(marker.utf8)) == nil)
    web.stop()

    #expect(try home.run(["donor", "add", "--at", "2026-11-02T09:00", "--place", "Undo me"]).status == 0)
    #expect(try home.run(["undo", "--yes"]).status == 0)
    #expect(!(try home.run(["donor", "history", "--json"]).stdout.contains("Undo me")))

    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures").path
    let imported = try home.run(["health", "import", fixtures + "/apple-health/ios17-export.zip", "--json"])
    #expect(imported.status == 0 && imported.object?["inserted"] as? Int == 8, "\(imported.stderr)")
    let summary = try home.run(["health", "summary", "--date", "2024-01-01", "--json"])
    #expect(summary.object?["exercise_minutes"] as? Int == 1, "\(summary.stdout) \(summary.stderr)")
    #expect(try home.run(["db", "check"]).status == 0)
  }
}
