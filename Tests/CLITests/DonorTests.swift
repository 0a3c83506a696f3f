import Foundation
import Storage
import Testing

@Suite struct DonorTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T09:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "donor@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
    try #require(try vital.run(["profile", "set", "--sex", "female", "--weight-kg", "60"]).status == 0)
  }

  func answers(yes: [String] = []) throws -> String {
    let questions = try #require(try vital.run(["donor", "questions", "--json"]).json as? [[String: Any]])
    let ids = questions.compactMap { $0["id"] as? String }
    let object = Dictionary(uniqueKeysWithValues: ids.map { ($0, yes.contains($0)) })
    return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
  }

  func passQuestionnaire() throws {
    let run = try vital.run(["donor", "questionnaire", "--answers", "-", "--json"], stdin: try answers())
    try #require(run.status == 0, "\(run.stderr)")
  }

  @Test func theQuestionnaireResultIsStoredAndGatesBooking() throws {
    expectCleanError(
      try vital.run(["donor", "book", "--at", "2026-12-01T09:30", "--place", "DRK"]), mentioning: "questionnaire")
    let deferred = try vital.run(
      ["donor", "questionnaire", "--answers", "-", "--json"], stdin: try answers(yes: ["vaccination"]))
    #expect(deferred.object?["eligible"] as? Bool == false)
    #expect(deferred.object?["deferred_until"] as? String == "2026-12-22")
    expectCleanError(
      try vital.run(["donor", "book", "--at", "2026-12-01T09:30", "--place", "DRK"]), mentioning: "2026-12-22")
    // The stored result outlives the process: a later run still sees the deferral.
    let eligibility = try vital.run(["donor", "eligibility", "--json"])
    #expect(eligibility.object?["next_eligible"] as? String == "2026-12-22")
    #expect(try vital.run(["donor", "book", "--at", "2026-12-22T09:30", "--place", "DRK"]).status == 0)
  }

  @Test func incompleteOrMalformedAnswersAreRefusedAndNothingIsStored() throws {
    expectCleanError(
      try vital.run(["donor", "questionnaire", "--answers", "-"], stdin: "{\"vaccination\": false}"),
      mentioning: "missing")
    expectCleanError(
      try vital.run(["donor", "questionnaire", "--answers", "-"], stdin: "{\"vaccination\": 1}"),
      mentioning: "true or false")
    expectCleanError(
      try vital.run(["donor", "questionnaire", "--answers", "-"], stdin: "not json"), mentioning: "JSON")
    expectCleanError(try vital.run(["donor", "questionnaire"]), mentioning: "--answers")
    let db = try Database(path: vital.home + "/vital.sqlite")
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM questionnaire") == 0)
  }

  @Test func bookingRules() throws {
    try passQuestionnaire()
    expectCleanError(
      try vital.run(["donor", "book", "--at", "2026-11-01T09:30", "--place", "DRK"]), mentioning: "past")
    expectCleanError(
      try vital.run(["donor", "book", "--at", "2027-12-01T09:30", "--place", "DRK"]), mentioning: "a year ahead")
    #expect(try vital.run(["donor", "record", "--at", "2026-11-01T10:00", "--place", "DRK"]).status == 0)
    expectCleanError(
      try vital.run(["donor", "book", "--at", "2026-12-01T09:30", "--place", "DRK"]), mentioning: "2026-12-27")
    let booked = try vital.run(["donor", "book", "--at", "2026-12-28T09:30", "--place", "DRK", "--json"])
    #expect(booked.status == 0, "\(booked.stderr)")
    #expect(booked.object?["scheduled_at"] as? String == "2026-12-28T09:30:00+01:00")
    expectCleanError(
      try vital.run(["donor", "book", "--at", "2027-01-28T09:30", "--place", "DRK"]),
      mentioning: "already have an appointment")
    #expect(try vital.run(["donor", "cancel"]).status == 0)
    expectCleanError(try vital.run(["donor", "cancel"]), mentioning: "no scheduled appointment")
  }

  @Test func daysLeftCountsCalendarDaysInTheLocalZone() throws {
    try passQuestionnaire()
    #expect(try vital.run(["donor", "book", "--at", "2026-11-24T09:00", "--place", "DRK"]).status == 0)
    // 23:00 on the 23rd: ten hours away, but tomorrow.
    vital.environment["VITAL_NOW"] = "2026-11-23T22:00:00Z"
    #expect(try vital.run(["donor", "status", "--json"]).object?["days_left"] as? Int == 1)
    vital.environment["VITAL_NOW"] = "2026-11-23T23:30:00Z"  // 00:30 on the 24th in Berlin
    let today = try vital.run(["donor", "status", "--json"]).object
    #expect(today?["days_left"] as? Int == 0)
    #expect((today?["advice"] as? [String])?.contains { $0.contains("ID") } == true)
  }

  @Test func daysLeftAcrossTheSpringForward() throws {
    vital.environment["VITAL_NOW"] = "2026-03-20T09:00:00Z"
    try passQuestionnaire()
    #expect(try vital.run(["donor", "book", "--at", "2026-03-30T09:00", "--place", "DRK"]).status == 0)
    vital.environment["VITAL_NOW"] = "2026-03-28T22:30:00Z"  // 23:30 on the 28th, before the change
    #expect(try vital.run(["donor", "status", "--json"]).object?["days_left"] as? Int == 2)
    vital.environment["VITAL_NOW"] = "2026-03-28T23:30:00Z"  // 00:30 on the 29th, the short day
    #expect(try vital.run(["donor", "status", "--json"]).object?["days_left"] as? Int == 1)
    expectCleanError(
      try vital.run(["donor", "record", "--at", "2026-03-29T02:30", "--place", "DRK"]), mentioning: "does not exist")
  }

  @Test func aPassedAppointmentAsksToBeCompletedAndCountsOnlyThen() throws {
    try passQuestionnaire()
    #expect(try vital.run(["donor", "book", "--at", "2026-11-25T09:00", "--place", "DRK"]).status == 0)
    #expect(
      (try vital.run(["profile", "show", "--json"]).object?["donations"] as? [String: Any])?["completed"] as? Int == 0)
    vital.environment["VITAL_NOW"] = "2026-11-26T09:00:00Z"
    let status = try #require(try vital.run(["donor", "status", "--json"]).object)
    #expect(status["overdue"] as? Bool == true)
    #expect((status["advice"] as? [String])?.first?.contains("vital donor complete") == true)
    #expect(try vital.run(["donor", "complete"]).status == 0)
    let donations = try #require(try vital.run(["profile", "show", "--json"]).object?["donations"] as? [String: Any])
    #expect(donations["completed"] as? Int == 1)
    let after = try #require(try vital.run(["donor", "status", "--json"]).object)
    #expect(after["next_eligible"] as? String == "2027-01-20")
    #expect((after["advice"] as? [String])?.contains { $0.contains("bandage") } == true)
  }

  @Test func csvExportDeleteImportExportIsByteIdentical() throws {
    try passQuestionnaire()
    let places = ["DRK, Berlin \"Mitte\"", "Пункт переливания\nкрови №1", "東京 赤十字", "Plain place"]
    for (i, place) in places.enumerated() {
      let run = try vital.run([
        "donor", "record", "--at", "2025-0\(i + 1)-15T10:00", "--place", place, "--notes", "note, \(i)",
      ])
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(try vital.run(["donor", "book", "--at", "2026-12-28T09:30", "--place", "Ülm, Hbf"]).status == 0)
    let first = vital.root + "/first.csv"
    #expect(try vital.run(["donor", "export", "--out", first]).status == 0)
    let original = try Data(contentsOf: URL(fileURLWithPath: first))

    // A new data folder: the database is gone, only the CSV is left.
    let fresh = try VitalHome()
    fresh.environment = vital.environment
    #expect(
      try fresh.run(
        ["account", "register", "--email", "donor@example.org", "--password-stdin"],
        stdin: "lilac harbour 1987 teaspoon\n"
      ).status == 0)
    let imported = try fresh.run(["donor", "import", first, "--json"])
    #expect(imported.object?["inserted"] as? Int == 5, "\(imported.stderr)")
    let again = try fresh.run(["donor", "import", first, "--json"])
    #expect(again.object?["inserted"] as? Int == 0 && again.object?["unchanged"] as? Int == 5)
    let second = fresh.root + "/second.csv"
    #expect(try fresh.run(["donor", "export", "--out", second]).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: second)) == original)
    let history = try #require(try fresh.run(["donor", "history", "--json"]).json as? [[String: Any]])
    #expect(Set(history.compactMap { $0["place"] as? String }) == Set(places + ["Ülm, Hbf"]))
  }

  @Test(arguments: [
    ("wrong header", "id,kind,status\r\n", "line 1"),
    (
      "bad date", "e0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,whole-blood,completed,,1st of May,DRK,\r\n",
      "line 3: completed_at"
    ),
    (
      "unknown kind", "e0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,bone-marrow,completed,,2025-05-01T10:00:00+02:00,DRK,\r\n",
      "unknown kind"
    ),
    (
      "unbalanced quote",
      "e0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,whole-blood,completed,,2025-05-01T10:00:00+02:00,\"DRK,\r\n", "never closed"
    ),
    ("too few fields", "e0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,whole-blood,completed\r\n", "expected 7 fields"),
    ("not a uuid", "42,whole-blood,completed,,2025-05-01T10:00:00+02:00,DRK,\r\n", "UUID"),
    ("completed without time", "e0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,whole-blood,completed,,,DRK,\r\n", "completed_at"),
    (
      "a local time the clocks skip",
      "e0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,whole-blood,completed,,2026-03-29T02:30:00,DRK,\r\n",
      "line 3: completed_at 2026-03-29T02:30:00 does not exist in Europe/Berlin"
    ),
  ])
  func malformedCSVIsRefusedAndWritesNothing(name: String, body: String, message: String) throws {
    let good = "c0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,plasma,completed,,2025-04-01T10:00:00+02:00,Good row,\r\n"
    let header = "id,kind,status,scheduled_at,completed_at,place,notes\r\n"
    let text = name == "wrong header" ? body + good : header + good + body
    let file = vital.root + "/bad.csv"
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    expectCleanError(try vital.run(["donor", "import", file]), mentioning: message)
    let history = try #require(try vital.run(["donor", "history", "--json"]).json as? [Any])
    #expect(history.isEmpty, "\(name): the good row must not be written either")
  }

  /// A bad row at the end of a large file: nothing of the rows before it is kept, and the same
  /// file without it imports whole.
  @Test func aBadRowAfterBatchesWereWrittenRollsBackTheWholeImport() throws {
    var text = "id,kind,status,scheduled_at,completed_at,place,notes\r\n"
    let rows = 70_000
    for i in 0..<rows {
      // One donation every 8 hours back from 2026-10-01, ids that sort in another order than the rows.
      let at = Date(timeIntervalSince1970: 1_790_812_800 - Double(i) * 28_800)
      text += String(format: "%08x-0000-4000-8000-%012x", (i &* 2_654_435_761) & 0xffff_ffff, i)
      text += ",plasma,completed,,\(ISO8601DateFormatter().string(from: at)),Hall \(i % 7),\r\n"
    }
    let file = vital.root + "/many.csv"
    try Data((text + "e0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,plasma,completed,,yesterday,DRK,\r\n").utf8).write(
      to: URL(fileURLWithPath: file))
    expectCleanError(try vital.run(["donor", "import", file]), mentioning: "line \(rows + 2): completed_at")
    #expect(try vital.run(["donor", "history", "--json"]).json.map { ($0 as? [Any])?.count } == 0)
    // The file is read in pieces at once: an id repeated at its end is found all the same.
    let firstID = String(text.split(separator: "\r\n")[1].prefix(36))
    try Data((text + "\(firstID),plasma,completed,,2020-01-01T10:00:00Z,DRK,\r\n").utf8).write(
      to: URL(fileURLWithPath: file))
    expectCleanError(
      try vital.run(["donor", "import", file]),
      mentioning: "line \(rows + 2): id \(firstID) appears again (first on line 2)")

    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    let run = try vital.run(["donor", "import", file, "--json"])
    #expect(run.object?["inserted"] as? Int == rows, "\(run.stderr)")
    // So many rows go through a rollback journal; the file is back in WAL after (header bytes
    // 18 and 19 are 2 for WAL, 1 for a journal; read before any open could set it again).
    let header = try #require(FileHandle(forReadingAtPath: vital.home + "/vital.sqlite")?.readData(ofLength: 20))
    #expect(Array(header.suffix(2)) == [2, 2])
    #expect(try vital.run(["donor", "history", "--json"]).json.map { ($0 as? [Any])?.count } == rows)
    // So many new rows also build the date index after inserting them: it is there again, whole.
    let db = try Database(path: vital.home + "/vital.sqlite")
    #expect(
      try db.scalar(String.self, "SELECT sql FROM sqlite_schema WHERE name = 'donation_account_date'")?.contains(
        "coalesce(completed_at, scheduled_at) DESC") == true)
    #expect(try db.scalar(Int.self, "SELECT count(*) FROM donation INDEXED BY donation_account_date") == rows)
    #expect(try db.integrityProblems().isEmpty)
  }

  /// A file read in pieces whose first piece holds only blank lines still finds its header.
  @Test func blankLinesBeforeTheHeaderAreSkippedHoweverMany() throws {
    let text =
      String(repeating: "\r\n", count: 400_000) + "id,kind,status,scheduled_at,completed_at,place,notes\r\n"
      + "e0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,plasma,completed,,2025-05-01T10:00:00+02:00,DRK,\r\n"
    let file = vital.root + "/blank.csv"
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    let run = try vital.run(["donor", "import", file, "--json"])
    #expect(run.object?["inserted"] as? Int == 1, "\(run.stderr)")
  }

  @Test func importRefusesFoldersAndMissingFiles() throws {
    expectCleanError(try vital.run(["donor", "import", vital.root]), mentioning: "not a regular file")
    expectCleanError(try vital.run(["donor", "import", vital.root + "/nope.csv"]), mentioning: "no such file")
  }

  @Test func guideFollowsTheRegion() throws {
    let de = try vital.run(["donor", "guide"]).stdout
    #expect(de.contains("56 days"))
    #expect(try vital.run(["profile", "set", "--region", "uk"]).status == 0)
    #expect(try vital.run(["donor", "guide"]).stdout.contains("16 weeks"))
  }

  @Test func questionsComeInRussianToo() throws {
    let ru = try #require(try vital.run(["donor", "questions", "--lang", "ru", "--json"]).json as? [[String: Any]])
    #expect((ru.first?["text"] as? String)?.contains("хронические") == true)
  }
}
