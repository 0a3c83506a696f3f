import Foundation
import Storage
import Testing

@Suite struct AccountTests {
  let vital: VitalHome
  let password = "lilac harbour 1987 teaspoon"

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-12-01T08:00:00Z"
  }

  @discardableResult
  func register(_ email: String = "ann@example.org", password: String? = nil) throws -> Run {
    try vital.run(
      ["account", "register", "--email", email, "--name", "Ann", "--password-stdin", "--json"],
      stdin: (password ?? self.password) + "\n")
  }

  func login(_ email: String = "ann@example.org", password: String) throws -> Run {
    try vital.run(["account", "login", "--email", email, "--password-stdin"], stdin: password + "\n")
  }

  @Test func registerLogsInAndKeepsOnlyATokenHash() throws {
    let run = try register(" Ann@Example.org ")
    #expect(run.status == 0, "\(run.stderr)")
    let doc = try #require(run.object)
    #expect(doc["email"] as? String == "ann@example.org")
    #expect(doc["name"] as? String == "Ann")
    #expect((doc["id"] as? String)?.count == 36)
    let session = vital.home + "/session"
    #expect(vital.mode(session) == 0o600)
    let token = try String(contentsOfFile: session, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(token.count == 64)
    let who = try vital.run(["account", "whoami", "--json"])
    #expect(who.object?["email"] as? String == "ann@example.org")
    // Neither the token nor the password is anywhere in the database file.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: vital.home + "/vital.sqlite"))
    #expect(bytes.range(of: Data(token.utf8)) == nil)
    #expect(bytes.range(of: Data(password.utf8)) == nil)
  }

  @Test func wrongPasswordAndUnknownEmailReadTheSame() throws {
    try register()
    let wrong = try login(password: "not the password at all")
    let unknown = try login("nobody@example.org", password: "not the password at all")
    expectCleanError(wrong, mentioning: "wrong email or password")
    #expect(wrong.stderr == unknown.stderr)
    #expect(wrong.status == unknown.status)
    #expect(!wrong.stderr.contains("not the password"))
  }

  @Test func tenFailuresLockTheAccountForFifteenMinutes() throws {
    try register()
    for _ in 0..<10 { #expect(try login(password: "guess guess guess").status == 1) }
    expectCleanError(try login(password: password), mentioning: "too many failed logins")
    vital.environment["VITAL_NOW"] = "2026-12-01T08:14:00Z"
    expectCleanError(try login(password: password), mentioning: "try again in 1 minute")
    vital.environment["VITAL_NOW"] = "2026-12-01T08:15:01Z"
    #expect(try login(password: password).status == 0)
  }

  @Test func weakPasswordsAndBadEmailsAreRefusedBeforeAnythingIsWritten() throws {
    expectCleanError(try register(password: "short"), mentioning: "too short")
    expectCleanError(try register(password: "password123"), mentioning: "commonly used")
    expectCleanError(
      try vital.run(["account", "register", "--email", "not-an-email", "--password-stdin"], stdin: password + "\n"),
      mentioning: "email")
    expectCleanError(
      try vital.run(["account", "register", "--email", "a@example.org", "--password-stdin"], stdin: ""),
      mentioning: "stdin")
    let db = try Database(path: vital.home + "/vital.sqlite")
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM account") == 0)
    #expect(!FileManager.default.fileExists(atPath: vital.home + "/session"))
  }

  @Test func withoutATerminalOrStdinFlagThePasswordIsNotAsked() throws {
    expectCleanError(
      try vital.run(["account", "register", "--email", "a@example.org"]), mentioning: "--password-stdin")
  }

  @Test func passwordsAreNeverAcceptedAsArguments() throws {
    #expect(try vital.run(["account", "login", "--email", "a@example.org", "--password", password]).status == 64)
  }

  @Test func logoutEndsTheSession() throws {
    try register()
    let token = try String(contentsOfFile: vital.home + "/session", encoding: .utf8)
    #expect(try vital.run(["account", "logout"]).status == 0)
    expectCleanError(try vital.run(["account", "whoami"]), mentioning: "not logged in")
    // The old token is dead even if someone kept a copy of the file.
    try token.write(toFile: vital.home + "/session", atomically: true, encoding: .utf8)
    expectCleanError(try vital.run(["account", "whoami"]), mentioning: "not logged in")
  }

  @Test func aSessionUnusedForThirtyDaysExpires() throws {
    try register()
    vital.environment["VITAL_NOW"] = "2026-12-31T07:00:00Z"
    #expect(try vital.run(["account", "whoami"]).status == 0)
    vital.environment["VITAL_NOW"] = "2027-01-31T07:00:00Z"
    expectCleanError(try vital.run(["account", "whoami"]), mentioning: "expired")
  }

  @Test func passwdChangesThePasswordAndEndsTheSession() throws {
    try register()
    let newPassword = "a completely different phrase"
    expectCleanError(
      try vital.run(["account", "passwd", "--password-stdin"], stdin: "wrong old one\n\(newPassword)\n"),
      mentioning: "wrong password")
    let run = try vital.run(["account", "passwd", "--password-stdin"], stdin: "\(password)\n\(newPassword)\n")
    #expect(run.status == 0, "\(run.stderr)")
    expectCleanError(try vital.run(["account", "whoami"]), mentioning: "not logged in")
    #expect(try login(password: password).status == 1)
    #expect(try login(password: newPassword).status == 0)
  }

  @Test func deleteNeedsYesAndRemovesEveryRowOfTheAccount() throws {
    try register()
    #expect(try vital.run(["profile", "set", "--blood-type", "A+", "--sex", "female"]).status == 0)
    let png = vital.root + "/me.png"
    try TestImagesFile.png(at: png)
    #expect(try vital.run(["profile", "avatar", "set", png]).status == 0)
    let id = try #require(try vital.run(["account", "whoami", "--json"]).object?["id"] as? String)
    let kept = try #require(
      try vital.run(
        ["account", "register", "--email", "bob@example.org", "--password-stdin", "--json"],
        stdin: "bob's own long passphrase\n"
      )
      .object?["id"] as? String)
    #expect(try login(password: password).status == 0)
    let session = try String(contentsOfFile: vital.home + "/session", encoding: .utf8)

    #expect(try vital.run(["account", "delete", "--password-stdin"], stdin: password + "\n").status == 64)
    let run = try vital.run(["account", "delete", "--yes", "--password-stdin"], stdin: password + "\n")
    #expect(run.status == 0, "\(run.stderr)")

    let db = try Database(path: vital.home + "/vital.sqlite")
    let tables = try db.query("SELECT name FROM sqlite_schema WHERE type = 'table'") { try $0.get(0, as: String.self) }
    var remaining = 0
    for table in tables {
      let columns = try db.query("SELECT name FROM pragma_table_info(?)", table) { try $0.get(0, as: String.self) }
      for column in columns where column == "account_id" || (table == "account" && column == "id") {
        remaining += try db.scalar(Int.self, "SELECT count(*) FROM \(table) WHERE \(column) = ?", id) ?? 0
      }
    }
    #expect(remaining == 0, "rows of the deleted account remain")
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM account WHERE id = ?", kept) == 1)
    // A session file from the deleted account is refused.
    try session.write(toFile: vital.home + "/session", atomically: true, encoding: .utf8)
    expectCleanError(try vital.run(["profile", "show"]), mentioning: "not logged in")
  }

  @Test func plainVitalShowsAnOverviewOnceAnAccountExists() throws {
    try register()
    let run = try vital.run([])
    #expect(run.status == 0)
    #expect(run.stdout.contains("ann@example.org"))
    #expect(run.stdout.contains("may donate"))
    #expect(!run.stdout.contains("Welcome to Vital"))
    let json = try #require(try vital.run(["--json"]).object)
    #expect(json["logged_in"] as? Bool == true)
    #expect(json["next_eligible"] as? String == "2026-12-01")
    #expect(json["next_appointment"] is NSNull)
  }
}
