import Foundation
import Schema
import Storage
import Testing

@Suite struct SkeletonTests {
  let vital: VitalHome
  init() throws { vital = try VitalHome() }

  @Test func versionNamesVitalAndSQLite() throws {
    let run = try vital.run(["--version"], home: .unset)
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("vital "))
    #expect(run.stdout.contains("SQLite 3."))
  }

  @Test func dbCheckOnANewHomeCreatesItPrivately() throws {
    let run = try vital.run(["db", "check", "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    let doc = try #require(run.object, "stdout must be one JSON document: \(run.stdout)")
    #expect(doc["ok"] as? Bool == true)
    #expect(doc["integrity"] as? [String] == ["ok"])
    #expect(doc["schema_version"] as? Int == VitalSchema.migrator.migrations.count)
    #expect(vital.mode(vital.home) == 0o700)
    #expect(vital.mode(vital.home + "/vital.sqlite") == 0o600)
    #expect(run.stderr.isEmpty)
  }

  @Test func anExistingLooseHomeIsTightened() throws {
    try FileManager.default.createDirectory(atPath: vital.home, withIntermediateDirectories: true)
    chmod(vital.home, 0o755)
    #expect(try vital.run(["db", "check"]).status == 0)
    #expect(vital.mode(vital.home) == 0o700)
  }

  @Test func homeComesFromTheEnvironmentWhenNotGiven() throws {
    vital.environment["VITAL_HOME"] = vital.root + "/from-env"
    let run = try vital.run(["db", "check", "--json"], home: .unset)
    #expect(run.status == 0, "\(run.stderr)")
    #expect((run.object?["path"] as? String)?.hasPrefix(vital.root + "/from-env/") == true)
    vital.environment["VITAL_HOME"] = nil
    vital.environment["XDG_DATA_HOME"] = vital.root + "/xdg"
    #expect(try vital.run(["db", "check"], home: .unset).status == 0)
    #expect(FileManager.default.fileExists(atPath: vital.root + "/xdg/vital/vital.sqlite"))
  }

  @Test func plainVitalGreetsANewUser() throws {
    let run = try vital.run([])
    #expect(run.status == 0)
    #expect(run.stdout.contains("Welcome to Vital"))
    #expect(run.stdout.contains("vital account register"))
    #expect(run.stdout.contains("not encrypted"), "the welcome says the file is not encrypted at rest")
    let json = try vital.run(["--json"])
    #expect((json.object?["at_rest"] as? String)?.contains("not encrypted") == true)
    #expect(json.object?["next_steps"] != nil, "got \(json.stdout)")
  }

  @Test func unknownCommandsAndMissingArgumentsAreUsageErrors() throws {
    #expect(try vital.run(["frobnicate"]).status == 64)
    #expect(try vital.run(["db", "frobnicate"]).status == 64)
    #expect(try vital.run(["db", "backup"]).status == 64)
    #expect(try vital.run(["db", "check", "--no-such-flag"]).status == 64)
  }

  @Test func aHomeThatIsAFileIsOneClearError() throws {
    let file = vital.root + "/plain-file"
    try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
    expectCleanError(try vital.run(["db", "check"], home: .path(file)), mentioning: "not a folder")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "not a folder")
  }

  @Test func anUnwritableHomeIsOneClearError() throws {
    let locked = vital.root + "/locked"
    try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
    chmod(locked, 0o555)
    defer { chmod(locked, 0o755) }
    // root writes anywhere: run as nobody then, so the permission check is real.
    let user = geteuid() == 0 ? "nobody" : nil
    expectCleanError(try vital.run(["db", "check"], home: .path(locked), asUser: user), mentioning: locked)
    expectCleanError(
      try vital.run(["db", "check"], home: .path(locked + "/inside"), asUser: user), mentioning: "inside")
    #expect(try FileManager.default.contentsOfDirectory(atPath: locked).isEmpty)
  }

  @Test func badClockAndZoneAreOneClearError() throws {
    vital.environment["VITAL_NOW"] = "next tuesday"
    expectCleanError(try vital.run(["db", "check"]), mentioning: "VITAL_NOW")
    vital.environment["VITAL_NOW"] = "2026-12-01T08:00:00Z"
    vital.environment["TZ"] = "Atlantis/Capital"
    expectCleanError(try vital.run(["db", "check"]), mentioning: "TZ")
  }

  @Test func aDatabaseFromANewerVitalIsRefusedUntouched() throws {
    try FileManager.default.createDirectory(atPath: vital.home, withIntermediateDirectories: true)
    let path = vital.home + "/vital.sqlite"
    do {
      let future = Migrator(
        VitalSchema.migrator.migrations + [Migration("9999_from_the_future", sql: "CREATE TABLE f (x INTEGER) STRICT;")]
      )
      try future.migrate(try Database(path: path))
    }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    expectCleanError(try vital.run(["db", "check"]), mentioning: "newer version of Vital")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
  }

  @Test func backupWritesACheckedCopyAndNeverOverwrites() throws {
    let target = vital.root + "/copy.sqlite"
    let run = try vital.run(["db", "backup", target, "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.object?["path"] as? String == target)
    #expect(vital.mode(target) == 0o600)
    #expect(try Database(path: target).integrityProblems() == [])
    expectCleanError(try vital.run(["db", "backup", target]), mentioning: "exists")
    #expect(try vital.run(["db", "backup", target, "--force"]).status == 0)
  }

  /// A backup says that it holds the secrets, and can be made without them.
  @Test func backupWithoutSecretsKeepsRecordsAndDropsTokenSessionAndKey() throws {
    let registered = try vital.run(
      ["account", "register", "--email", "copy@example.org", "--password-stdin"], stdin: "lilac harbour 1987 teaspoon\n"
    )
    try #require(registered.status == 0, "\(registered.stderr)")
    #expect(try vital.run(["donor", "record", "--at", "2026-11-20 10:00", "--place", "DRK Ulm"]).status == 0)
    #expect(try vital.run(["remote", "set", "http://127.0.0.1:9"]).status == 0)
    let home = try Database(path: vital.home + "/vital.sqlite")
    let token = "f00dfeedf00dfeedf00dfeedf00dfeed"
    try home.execute("UPDATE sync_remote SET token = ?", token)
    try home.execute(
      "INSERT INTO sync_key (account_id, data_key, wrapped) SELECT id, ?, '{}' FROM account",
      Data(repeating: 0xAB, count: 32))
    let plain = try vital.run(["db", "backup", vital.root + "/plain.sqlite"])
    #expect(plain.stdout.contains("holds your login session, the sync server's token and the sync key"))
    let target = vital.root + "/clean.sqlite"
    let run = try vital.run(["db", "backup", target, "--without-secrets", "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.object?["secrets"] as? Bool == false)
    let copy = try Database(path: target)
    #expect(try copy.scalar(Int.self, "SELECT count(*) FROM session") == 0)
    #expect(try copy.scalar(Int.self, "SELECT count(*) FROM sync_key") == 0)
    #expect(try copy.scalar(Int.self, "SELECT count(*) FROM sync_remote WHERE token IS NOT NULL") == 0)
    #expect(try copy.scalar(Int.self, "SELECT count(*) FROM donation") == 1)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: target))
    #expect(bytes.range(of: Data(token.utf8)) == nil, "the token's bytes are gone from the file")
    #expect(bytes.range(of: Data(repeating: 0xAB, count: 32)) == nil, "the key's bytes are gone from the file")
    let withSecrets = try Data(contentsOf: URL(fileURLWithPath: vital.root + "/plain.sqlite"))
    #expect(withSecrets.range(of: Data(token.utf8)) != nil, "the plain copy does hold it (the check can fail)")
  }

  @Test func completionScriptsAreGenerated() throws {
    for shell in ["bash", "zsh", "fish"] {
      let run = try vital.run(["--generate-completion-script", shell], home: .unset)
      #expect(run.status == 0)
      #expect(run.stdout.contains("vital"))
    }
  }

  @Test func everyCommandHasHelp() throws {
    for command in [[], ["db"], ["db", "check"], ["db", "backup"]] {
      let run = try vital.run(command + ["--help"], home: .unset)
      #expect(run.status == 0, "\(command) --help")
      #expect(run.stdout.contains("USAGE"))
    }
  }
}

@Suite struct CommandSuggestionTests {
  @Test func aMisspeltCommandSuggestsTheNearestOne() throws {
    let vital = try VitalHome()
    for (args, typed, suggested) in [
      (["donr"], "donr for 'vital'", "vital donor"),
      (["donor", "statsu"], "statsu for 'vital donor'", "vital donor status"),
      (["--home", vital.home, "helth", "summary"], "helth for 'vital'", "vital health"),
      (["health", "trnd", "--type", "steps"], "trnd for 'vital health'", "vital health trend"),
      (["remote", "stauts"], "stauts for 'vital remote'", "vital remote status"),
    ] {
      let run = try vital.run(args, home: .unset)
      #expect(run.status == 64, "\(args)")
      let (word, group) = (typed.components(separatedBy: " for ")[0], typed.components(separatedBy: " for ")[1])
      #expect(
        run.stderrLines.first == "Error: Unknown command '\(word)' for \(group). Did you mean '\(suggested)'?",
        "\(run.stderr)")
      #expect(run.stderr.contains("Usage:"))
    }
    // Nothing near: argument-parser's own words.
    let far = try vital.run(["xyzzy"], home: .unset)
    #expect(far.status == 64 && far.stderrLines.first == "Error: Unexpected argument 'xyzzy'")
    // Options were already suggested by argument-parser.
    #expect(try vital.run(["donor", "status", "--jsn"]).stderr.contains("Did you mean '--json'?"))
  }
}
