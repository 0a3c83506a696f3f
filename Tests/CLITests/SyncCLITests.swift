import Foundation
import Replication
import Storage
import TestImages
import TestServer
import Testing

/// Two homes as two devices of one user, a real server between them.
@Suite struct SyncCLITests {
  let root: VitalHome
  let server: TestServer
  let a: VitalHome
  let b: VitalHome
  let localPassword = "lilac harbour 1987 teaspoon"
  let serverPassword = "server side passphrase 42"

  init() throws {
    root = try VitalHome()
    server = try TestServer(dataDirectory: root.root + "/server")
    a = try VitalHome()
    b = try VitalHome()
    for (device, index) in [(a, 0), (b, 1)] {
      device.environment["VITAL_NOW"] = "2026-11-22T0\(index + 8):00:00Z"
      try #require(
        try device.run(
          ["account", "register", "--email", "ann@example.org", "--password-stdin"], stdin: localPassword + "\n"
        )
        .status == 0)
      try #require(try device.run(["remote", "set", server.url.absoluteString]).status == 0)
    }
    let registered = try a.run(["remote", "register", "--password-stdin"], stdin: serverPassword + "\n")
    try #require(registered.status == 0, "\(registered.stderr)")
    try #require(try b.run(["remote", "login", "--password-stdin"], stdin: serverPassword + "\n").status == 0)
  }

  @discardableResult
  func sync(_ device: VitalHome) throws -> [String: Any] {
    let run = try device.run(["sync", "--json"])
    #expect(run.status == 0, "sync failed: \(run.stderr)")
    return run.object ?? [:]
  }

  func passQuestionnaire(_ device: VitalHome) throws {
    let questions = try #require(try device.run(["donor", "questions", "--json"]).json as? [[String: Any]])
    let answers = Dictionary(uniqueKeysWithValues: questions.compactMap { $0["id"] as? String }.map { ($0, false) })
    let text = String(decoding: try JSONSerialization.data(withJSONObject: answers), as: UTF8.self)
    try #require(try device.run(["donor", "questionnaire", "--answers", "-"], stdin: text).status == 0)
  }

  func history(_ device: VitalHome) throws -> [[String: Any]] {
    try #require(try device.run(["donor", "history", "--json"]).json as? [[String: Any]])
  }

  @Test func encryptionFromTheCommandLine() throws {
    let phrase = "our family sync phrase"
    try passQuestionnaire(a)
    #expect(try a.run(["donor", "book", "--at", "2026-12-20T09:30", "--place", "Praxis Geheimweg 7"]).status == 0)
    try sync(a)
    expectCleanError(try a.run(["remote", "encrypt"]), mentioning: "--passphrase-stdin")
    expectCleanError(
      try a.run(["remote", "encrypt", "--passphrase-stdin"], stdin: "short\n"), mentioning: "passphrase")
    let on = try a.run(["remote", "encrypt", "--passphrase-stdin", "--json"], stdin: phrase + "\n")
    #expect(on.status == 0, "\(on.stderr)")
    #expect(on.object?["encrypted"] as? Bool == true)
    expectCleanError(
      try a.run(["remote", "encrypt", "--passphrase-stdin"], stdin: phrase + "\n"), mentioning: "already on")
    if server.database == nil {
      let stored = try Data(contentsOf: URL(fileURLWithPath: server.dataDirectory + "/server.sqlite"))
      #expect(stored.range(of: Data("Geheimweg".utf8)) == nil)
    }

    // b was logged in before: its next sync needs the passphrase, and a wrong one changes nothing.
    expectCleanError(try b.run(["sync"]), mentioning: "passphrase")
    let wrong = try b.run(["sync", "--passphrase-stdin"], stdin: "not our phrase at all\n")
    expectCleanError(wrong, mentioning: "wrong sync passphrase")
    #expect(try history(b).isEmpty)
    #expect(try b.run(["sync", "--passphrase-stdin"], stdin: phrase + "\n").status == 0)
    #expect(try history(b).first?["place"] as? String == "Praxis Geheimweg 7")
    #expect(try b.run(["remote", "status", "--json"]).object?["encrypted"] as? Bool == true)

    // A new passphrase: b keeps syncing; a third device logs in with password and passphrase.
    let changed = try a.run(["remote", "passphrase", "--passphrase-stdin"], stdin: "a second family phrase\n")
    #expect(changed.status == 0, "\(changed.stderr)")
    #expect(try b.run(["donor", "cancel"]).status == 0)
    try sync(b)
    try sync(a)
    #expect(try history(a).first?["status"] as? String == "cancelled")
    let c = try VitalHome()
    c.environment["VITAL_NOW"] = "2026-11-22T10:00:00Z"
    _ = try c.run(
      ["account", "register", "--email", "ann@example.org", "--password-stdin"], stdin: localPassword + "\n")
    _ = try c.run(["remote", "set", server.url.absoluteString])
    let login = try c.run(
      ["remote", "login", "--password-stdin", "--passphrase-stdin", "--json"],
      stdin: serverPassword + "\na second family phrase\n")
    #expect(login.status == 0, "\(login.stderr)")
    #expect(login.object?["encrypted"] as? Bool == true)
    try sync(c)
    #expect(try history(c).first?["status"] as? String == "cancelled")
  }

  /// A 12 MiB note (as an older Vital could write one) is refused where notes are written now,
  /// and one already queued is set aside by `vital sync`, listed by `vital remote status`, while
  /// a normal donation still reaches the other device.
  @Test func aNoteTooLargeIsSetAsideAndTheRestArrives() throws {
    let huge = String(repeating: "n", count: 12 << 20)
    // An argument cannot carry 12 MiB; a CSV can.
    let csv = a.root + "/huge.csv"
    try Data(
      ("id,kind,status,scheduled_at,completed_at,place,notes\r\n"
        + "e0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,plasma,completed,,2026-11-20T10:00:00+01:00,DRK,\(huge)\r\n").utf8
    ).write(to: URL(fileURLWithPath: csv))
    expectCleanError(try a.run(["donor", "import", csv]), mentioning: "line 2: notes holds 12 MiB", "at most 1 MiB")
    #expect(try history(a).isEmpty)
    let db = try Database(path: a.home + "/vital.sqlite")
    let account = try #require(try db.scalar(String.self, "SELECT id FROM account"))
    let hlc = "2026-11-01T10:00:00.000Z-0000-00000000000000aa"
    try db.execute(
      """
      INSERT INTO donation (id, account_id, kind, status, completed_at, place, notes, updated_at)
      VALUES ('0bad0bad-0000-4000-8000-000000000000', ?, 'plasma', 'completed', '2026-11-01T10:00:00.000Z', 'DRK', ?,
        '2026-11-01T10:00:00.000Z')
      """, account, huge)
    try db.execute(
      "INSERT INTO sync_row (account_id, dataset, row_id, clocks) VALUES (?, 'donation', '0bad0bad-0000-4000-8000-000000000000', ?)",
      account, "*=" + hlc)
    try db.execute(
      "INSERT INTO sync_outbox (account_id, dataset, row_id, field, value, hlc) VALUES (?, 'donation', '0bad0bad-0000-4000-8000-000000000000', '*', NULL, ?)",
      account, hlc)
    #expect(try a.run(["donor", "record", "--at", "2026-11-21 10:00", "--place", "DRK Ulm"]).status == 0)
    let run = try a.run(["sync", "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    let setAside = try #require(run.object?["set_aside"] as? [[String: Any]])
    #expect(setAside.map { $0["id"] as? String } == ["0bad0bad-0000-4000-8000-000000000000"])
    #expect(run.stderr.hasPrefix("warning: donation 0bad0bad-000 set aside"), "\(run.stderr)")
    #expect(run.stderr.contains("vital donor edit 0bad0bad-000"))
    let status = try a.run(["remote", "status", "--json"])
    #expect((status.object?["set_aside"] as? [Any])?.count == 1)
    #expect(try a.run(["remote", "status"]).stdout.contains("set aside  1 record not sent (too large)"))
    try sync(b)
    #expect(try history(b).map { $0["place"] as? String } == ["DRK Ulm"])
  }

  @Test func movingToAnotherServerTakesEveryRecordThere() throws {
    try passQuestionnaire(a)
    #expect(try a.run(["donor", "book", "--at", "2026-12-20T09:30", "--place", "DRK Mitte"]).status == 0)
    try sync(a)
    let other = try TestServer(dataDirectory: root.root + "/other")
    for device in [a, b] {
      #expect(try device.run(["remote", "set", other.url.absoluteString]).status == 0)
      #expect(try device.run(["remote", "status", "--json"]).object?["logged_in"] as? Bool == false)
    }
    #expect(try a.run(["remote", "register", "--password-stdin"], stdin: serverPassword + "\n").status == 0)
    #expect((try sync(a)["pushed"] as? Int ?? 0) >= 2)
    #expect(try b.run(["remote", "login", "--password-stdin"], stdin: serverPassword + "\n").status == 0)
    try sync(b)
    #expect(try history(b).first?["place"] as? String == "DRK Mitte")
  }

  @Test func aBookingTravelsAndItsCancelComesBack() throws {
    try passQuestionnaire(a)
    #expect(try a.run(["donor", "book", "--at", "2026-12-20T09:30", "--place", "DRK Mitte"]).status == 0)
    try sync(a)
    try sync(b)
    let onB = try history(b)
    #expect(onB.count == 1)
    #expect(onB.first?["status"] as? String == "scheduled")
    #expect(onB.first?["place"] as? String == "DRK Mitte")
    #expect(try b.run(["donor", "cancel"]).status == 0)
    try sync(b)
    try sync(a)
    #expect(try history(a).first?["status"] as? String == "cancelled")
    let status = try #require(try a.run(["remote", "status", "--json"]).object)
    #expect(status["pending"] as? Int == 0)
    #expect(status["logged_in"] as? Bool == true)
  }

  @Test func theProfileStaysOneRecordAndEditsOfDifferentFieldsBothSurvive() throws {
    #expect(try a.run(["profile", "set", "--blood-type", "AB-"]).status == 0)
    #expect(try b.run(["profile", "set", "--surname", "Berg"]).status == 0)
    try sync(a)
    try sync(b)
    try sync(a)
    for device in [a, b] {
      let profile = try #require(try device.run(["profile", "show", "--json"]).object)
      #expect(profile["blood_type"] as? String == "AB-")
      #expect(profile["surname"] as? String == "Berg")
      let db = try Database(path: device.home + "/vital.sqlite")
      #expect(try db.scalar(Int.self, "SELECT count(*) FROM profile") == 1)
    }
  }

  @Test func theSameFieldEditedTwiceEndsWithTheLaterClockEverywhere() throws {
    a.environment["VITAL_NOW"] = "2026-11-22T10:05:00Z"
    b.environment["VITAL_NOW"] = "2026-11-22T10:00:00Z"
    #expect(try a.run(["profile", "set", "--surname", "Later"]).status == 0)
    #expect(try b.run(["profile", "set", "--surname", "Earlier"]).status == 0)
    try sync(a)
    try sync(b)
    try sync(a)
    for device in [a, b] {
      #expect(try device.run(["profile", "show", "--json"]).object?["surname"] as? String == "Later")
    }
  }

  @Test func theAvatarArrivesByteForByte() throws {
    let png = TestImages.png(width: 40, height: 30, shade: 0x33)
    try png.write(to: URL(fileURLWithPath: a.root + "/me.png"))
    #expect(try a.run(["profile", "avatar", "set", a.root + "/me.png"]).status == 0)
    try sync(a)
    try sync(b)
    #expect(try b.run(["profile", "avatar", "export", "--out", b.root + "/me.png"]).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: b.root + "/me.png")) == png)
  }

  @Test func aReplacedAvatarComesBackWithUndoAndAnUndoneOneLeavesTheServer() throws {
    let first = TestImages.png(width: 40, height: 30, shade: 0x33)
    let second = TestImages.png(width: 8, height: 8, shade: 0x99)
    try first.write(to: URL(fileURLWithPath: a.root + "/first.png"))
    try second.write(to: URL(fileURLWithPath: a.root + "/second.png"))
    func avatar(_ device: VitalHome) throws -> Data? {
      guard try device.run(["profile", "avatar", "export", "--out", device.root + "/out.png"]).status == 0 else {
        return nil
      }
      return try Data(contentsOf: URL(fileURLWithPath: device.root + "/out.png"))
    }
    func collect() throws -> Int? {
      let run = try TestServer.runVital(
        ["serve", "admin", "collect-blobs", "--older-than", "0", "--json"] + server.storeArguments)
      return (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["blobs"] as? Int
    }
    #expect(try a.run(["profile", "avatar", "set", a.root + "/first.png"]).status == 0)
    try sync(a)
    try sync(b)
    #expect(try a.run(["profile", "avatar", "set", a.root + "/second.png"]).status == 0)
    try sync(a)
    try sync(b)
    #expect(try avatar(b) == second)
    #expect(try collect() == 0, "the first avatar stays while an undo can bring it back")
    // Undo on one device: the first avatar is back there and, after a sync, on the other.
    #expect(try a.run(["undo", "--yes"]).status == 0)
    #expect(try avatar(a) == first)
    try sync(a)
    try sync(b)
    #expect(try avatar(b) == first)
    // The second avatar's record went with the undo: the server lets its bytes go.
    #expect(try collect() == 1)
    try sync(b)
    #expect(try avatar(b) == first)
  }

  @Test func syncWithoutAServerOrLoginSaysWhatToDo() throws {
    let c = try VitalHome()
    #expect(
      try c.run(["account", "register", "--email", "c@example.org", "--password-stdin"], stdin: localPassword + "\n")
        .status == 0)
    expectCleanError(try c.run(["sync"]), mentioning: "remote set")
    #expect(try c.run(["remote", "set", server.url.absoluteString]).status == 0)
    expectCleanError(try c.run(["sync"]), mentioning: "remote login")
    expectCleanError(
      try c.run(["remote", "login", "--password-stdin"], stdin: "wrong password here\n"),
      mentioning: "wrong email or password")
    #expect(try c.run(["remote", "set", "http://127.0.0.1:9"]).status == 0)
    expectCleanError(
      try c.run(["remote", "login", "--password-stdin"], stdin: "whatever it is\n"),
      mentioning: "cannot reach http://127.0.0.1:9 (connection refused)")
    // A name that does not resolve is said in words, not as the network library's type.
    #expect(try c.run(["remote", "set", "http://nowhere.local:8080"]).status == 0)
    let nowhere = try c.run(["remote", "login", "--password-stdin"], stdin: "whatever it is\n")
    expectCleanError(nowhere, mentioning: "cannot reach http://nowhere.local:8080 (")
    #expect(!nowhere.stderr.contains("NIO"), "\(nowhere.stderr)")
  }

  @Test func aKilledServerLosesNothingThatWasAcknowledged() throws {
    try passQuestionnaire(a)
    // Many records in one push, through the same write path as the commands.
    let db = try Database(path: a.home + "/vital.sqlite")
    let account = try #require(try db.scalar(String.self, "SELECT id FROM account"))
    let replica = Replica(db: db, accountID: account, now: ISO8601.date(from: "2026-11-22T08:00:00Z")!)
    try db.transaction { _ in
      for i in 0..<6000 {
        try replica.write(
          .donation, id: UUID().uuidString.lowercased(),
          [
            "kind": .text("plasma"), "status": .text("completed"), "scheduled_at": .null,
            "completed_at": .text("2025-01-01T10:00:00.000Z"), "place": .text("Centre \(i)"), "notes": .null,
          ])
      }
    }
    let pushing = Process()
    pushing.executableURL = VitalHome.binary
    pushing.arguments = ["sync", "--home", a.home]
    pushing.environment = ["TZ": "UTC", "VITAL_NOW": "2026-11-22T08:00:00Z", "PATH": "/usr/bin:/bin"]
    pushing.standardOutput = FileHandle.nullDevice
    pushing.standardError = FileHandle.nullDevice
    try pushing.run()
    usleep(400_000)
    server.stop(signal: SIGKILL)
    pushing.waitUntilExit()
    try server.start()
    try sync(a)
    try sync(b)
    try sync(a)
    #expect(try history(a).count == 6000)
    #expect(try history(b).count == 6000)
    let places = { (device: VitalHome) in Set(try self.history(device).compactMap { $0["id"] as? String }) }
    #expect(try places(a) == places(b))
  }

  @Test func theServerCopyIsDeletedOnRequestAndCanBeRebuilt() throws {
    #expect(try a.run(["donor", "record", "--at", "2026-10-01T10:00", "--place", "DRK"]).status == 0)
    #expect(try a.run(["cycle", "log", "--start", "2026-11-01", "--end", "2026-11-05"]).status == 0)
    try sync(a)
    expectCleanError(
      try a.run(["account", "delete", "--yes", "--password-stdin"], stdin: localPassword + "\n"),
      mentioning: "remote delete")
    let deleted = try a.run(["remote", "delete", "--yes"])
    #expect(deleted.status == 0, "\(deleted.stderr)")
    // B's token went with the account.
    expectCleanError(try b.run(["sync"]), mentioning: "log in again")
    // A new server account gets everything again from the device.
    #expect(try a.run(["remote", "register", "--password-stdin"], stdin: serverPassword + "\n").status == 0)
    #expect(try sync(a)["pushed"] as? Int == 2)
    #expect(try b.run(["remote", "login", "--password-stdin"], stdin: serverPassword + "\n").status == 0)
    try sync(b)
    #expect(try history(b).count == 1)
    #expect((try b.run(["cycle", "list", "--json"]).json as? [Any])?.count == 1)
    #expect(
      try a.run(["account", "delete", "--yes", "--keep-remote", "--password-stdin"], stdin: localPassword + "\n").status
        == 0)
  }

  @Test func theRankingOfSourcesTravelsAndBothDevicesCountTheSame() throws {
    let file = a.root + "/two.xml"
    try HealthTotalsCLITests.generate(file, ["--sources", "watch,phone", "--start", "2026-11-10", "--days", "1"])
    #expect(try a.run(["health", "import", file]).status == 0)
    func steps(_ device: VitalHome) throws -> Double? {
      try device.run(["health", "summary", "--date", "2026-11-10", "--json"]).object?["steps"] as? Double
    }
    try sync(a)
    try sync(b)
    let byWatch = try #require(try steps(a))
    #expect(try steps(b) == byWatch)
    #expect(try a.run(["health", "sources", "--prefer", HealthTotalsCLITests.phone]).status == 0)
    let byPhone = try #require(try steps(a))
    #expect(byPhone != byWatch)
    try sync(a)
    try sync(b)
    let listed = try #require(try b.run(["health", "sources", "--json"]).json as? [[String: Any]])
    #expect(listed.first?["name"] as? String == HealthTotalsCLITests.phone)
    #expect(listed.first?["preferred"] as? Int == 1)
    #expect(listed.last?["kind"] as? String == "watch", "the kind read from the export travels too")
    #expect(try steps(b) == byPhone)
  }
}
