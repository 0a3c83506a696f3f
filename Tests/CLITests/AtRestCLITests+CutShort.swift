import Foundation
import Testing

/// What a new user's try found: a file cut short must not become a fresh start, a changed
/// passphrase must not live on in the header's other copy, and `vital --home DIR sync` is the
/// home named.
extension AtRestCLITests {
  /// A file cut to its header, or to nothing, is refused by every command, and nothing is
  /// written: not a new schema in it, not the login dropped as one of an unknown account.
  @Test func aFileCutShortIsRefusedAndNotStartedAgain() throws {
    try encrypt()
    let original = bytes(database)
    let session = home.home + "/session"
    try #require(FileManager.default.fileExists(atPath: session), "a logged-in home keeps its session here")
    func write(_ data: Data) { _ = FileManager.default.createFile(atPath: database, contents: data) }

    for (cut, says) in [
      (original.prefix(4096), "its encryption header but no pages"),
      (original.prefix(100), "part of its encryption header"),
      (Data(), "nothing (0 bytes)"),
    ] {
      write(cut)
      for arguments in [["donor", "history"], ["db", "check"], ["unlock", "--passphrase-stdin"], ["export"]] {
        expectCleanError(
          try home.run(arguments, stdin: phrase + "\n"), mentioning: says, "cut short", "restore a backup")
        // Compared first: a failed `==` of two Data values is diffed byte by byte, which takes hours.
        let untouched = bytes(database) == cut
        #expect(untouched, "\(arguments) wrote to the file cut short")
      }
      #expect(FileManager.default.fileExists(atPath: session), "the login is kept")
    }

    // Cut at a page's end: SQLite finds the tree broken; the message says the file is damaged.
    write(original.prefix(4096 + 40 * 4096))
    expectCleanError(try home.run(["donor", "history"]), mentioning: "the file is damaged", "vital db check")
    let check = try home.run(["db", "check"])
    expectCleanError(check, mentioning: "the database file is damaged", "restore a backup")
    #expect(!check.stderr.contains("vital db check"), "db check does not send you to itself: \(check.stderr)")
    write(original)
    let history = try home.run(["donor", "history", "--json"])
    #expect(history.status == 0 && history.stdout.contains(marker), "\(history.stderr)")
  }

  /// After `vital db passphrase` neither copy of the header opens with the old passphrase, and
  /// with one copy damaged the other opens with the new one; `db check` says which is damaged.
  @Test func aNewPassphraseLeavesNoCopyOfTheOldOne() throws {
    try encrypt()
    let other = "quartz meadow 77 violin"
    let changed = try home.run(["db", "passphrase", "--passphrase-stdin"], stdin: "\(phrase)\n\(other)\n")
    try #require(changed.status == 0, "\(changed.stderr)")
    let original = bytes(database)
    let same = original[0..<2048] == original[2048..<4096]
    #expect(same, "both copies of the header are the same")

    home.environment["VITAL_KEYRING"] = "none"
    for damaged in [0, 1] {
      var file = original
      file[damaged * 2048 + 100] ^= 0x01  // inside the wrapped key
      _ = FileManager.default.createFile(atPath: database, contents: file)
      usePassphraseFile(phrase)
      expectCleanError(try home.run(["donor", "history"]), mentioning: "VITAL_PASSPHRASE_FILE", "does not open")
      usePassphraseFile(other)
      let history = try home.run(["donor", "history", "--json"])
      #expect(history.status == 0 && history.stdout.contains(marker), "copy \(damaged) damaged: \(history.stderr)")
      let check = try home.run(["db", "check", "--json"])
      #expect(check.status == 0 && check.object?["damaged_header_copies"] as? Int == 1, "\(check.stdout)")
      let said = try home.run(["db", "check"])
      #expect(said.stdout.contains("warning: one of the two copies of the encryption header is damaged"))
    }
    _ = FileManager.default.createFile(atPath: database, contents: original)
    #expect(try home.run(["db", "check", "--json"]).object?["damaged_header_copies"] as? Int == 0)
  }

  /// `vital --home DIR sync` (remote, web): the options before the command's name are handed to
  /// the program that runs it, not dropped for the environment's home.
  @Test func optionsBeforeAPassedOnCommandReachIt() throws {
    let elsewhere = home.root + "/elsewhere"
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    home.environment["VITAL_HOME"] = elsewhere
    let status = try home.run(["--home", home.home, "--json", "remote", "status"], home: .unset)
    #expect(status.status == 0 && status.object?["logged_in"] as? Bool == false, "\(status.stdout) \(status.stderr)")
    let equals = try home.run(["--home=" + home.home, "remote", "status"], home: .unset)
    #expect(equals.status == 0 && equals.stdout.contains("server"), "\(equals.stdout) \(equals.stderr)")
    // A --home after the name wins, as an option beats the environment.
    expectCleanError(
      try home.run(["--home", home.home, "sync", "--home", elsewhere], home: .unset), mentioning: "not logged in")
    // `vital` hands these on before it parses; an option it does not hand on is still its parser's.
    let help = try home.run(["--json", "sync", "--help"])
    #expect(help.status == 0 && help.stdout.contains("--passphrase-stdin"), "vital-sync's own help: \(help.stdout)")
    let unknown = try home.run(["--nonsense", "sync"])
    #expect(unknown.status == 64 && unknown.stderr.contains("--nonsense"), "\(unknown.stderr)")
    for folderless in [["--home", "--json", "sync"], ["--home", "--", "sync"]] {
      #expect(try home.run(folderless).status == 64, "a dash word is no folder: \(folderless)")
    }
  }

  /// `db backup` never writes over the database it copies, under its name, its log's or
  /// another name for the same file; the records and the login are as they were.
  @Test func aBackupOntoTheDatabaseItselfIsRefused() throws {
    try encrypt()
    let before = try export()
    let hardLink = home.root + "/linked.sqlite"
    try #require(link(database, hardLink) == 0)
    for target in [database, database + "-wal", home.home + "/./vital.sqlite", hardLink] {
      for options in [["--force"], ["--force", "--plain"], ["--force", "--without-secrets"]] {
        expectCleanError(try home.run(["db", "backup", target] + options), mentioning: "the database itself")
      }
    }
    #expect(bytes(database).starts(with: Data("vital-sealed-db".utf8)))
    #expect(try export() == before)
    #expect(try home.run(["account", "whoami"]).status == 0)
  }

  /// A passphrase file written on Windows ends its line in CR LF: the passphrase is the line.
  @Test func aPassphraseFileWithWindowsLineEndsOpens() throws {
    try encrypt()
    home.environment["VITAL_KEYRING"] = "none"
    usePassphraseFile(phrase + "\r")
    let history = try home.run(["donor", "history", "--json"])
    #expect(history.status == 0 && history.stdout.contains(marker), "\(history.stderr)")
  }
}
