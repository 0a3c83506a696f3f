import Foundation
import Storage
import Testing

/// No value stops a read: whatever a table holds (what an older Vital let in, or a hand edit),
/// every summary, trend, report and today view answers, with the bad value shown as invalid or
/// left out, never a signal. And the imports of other programs' files keep such values out.
@Suite struct StoredValuesTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-26T08:00:00Z"
    try ExportImportTests.register(vital, "stored@example.org")
  }

  func ok(_ arguments: [String]) throws { try ExportImportTests.ok(vital, arguments) }

  static let reads: [[String]] = [
    [], ["goals", "progress"], ["health", "summary"], ["health", "list"], ["health", "trend", "--type", "steps"],
    ["health", "trend", "--type", "distance", "--weeks", "4"], ["donor", "vitals"], ["donor", "history"],
    ["donor", "status"], ["donor", "eligibility"], ["cycle", "list"], ["cycle", "predict"], ["cycle", "calendar"],
    ["cycle", "notes"], ["meds", "list"], ["meds", "stats"], ["meds", "history"], ["reminders", "list"],
    ["profile", "show"], ["undo", "--list"], ["export"], ["export", "--format", "fhir"],
    ["export", "--format", "csv", "--kind", "daily-totals"],
  ]

  @Test(arguments: ["1e308", "-1e308", "'NaN'", "9e999", "-9e999", "'high'", "-5000"])
  func anyStoredNumberIsReadWithoutATrap(value: String) throws {
    try ok(["profile", "set", "--sex", "female", "--birth-date", "1990-01-01", "--weight-kg", "62", "--region", "de"])
    try ok(["health", "add", "--type", "steps", "--value", "4000", "--at", "09:00"])
    try ok(["health", "add", "--type", "distance", "--value", "3km", "--at", "09:00"])
    try ok(["goals", "add", "--type", "steps", "--target", "8000"])
    try ok(["donor", "add", "--at", "2026-10-01T10:00", "--place", "X", "--hb", "13"])
    try ok(["donor", "add", "--at", "2026-05-01T10:00", "--place", "X", "--hb", "13.5"])
    try ok(["cycle", "add", "--start", "2026-10-01", "--end", "2026-10-05"])
    try ok(["cycle", "note", "--date", "2026-11-20", "--temperature", "36.5"])
    try ok(
      ["meds", "add", "Metformin", "--at", "08:00", "--stock", "30", "--as-needed"].filter { $0 != "--as-needed" })
    let db = try Database(path: vital.home + "/vital.sqlite")
    try db.execute("PRAGMA ignore_check_constraints = 1")
    // A REAL column keeps text out (STRICT); an ANY column does not. NaN is stored as NULL.
    let real = value.hasPrefix("'") ? "-1" : value
    for (table, column, stored) in [
      ("health_sample", "value", value), ("donation", "hb_g_dl", real), ("goal", "target", real),
      ("profile", "weight_kg", real), ("cycle_note", "temperature", real),
    ] {
      try db.execute("UPDATE \(table) SET \"\(column)\" = \(stored)")
    }
    try db.execute("DELETE FROM health_counted")
    try db.execute("DELETE FROM health_counted_state")
    for command in Self.reads {
      let run = try vital.run(command)
      #expect(run.status == 0, "\(value): vital \(command.joined(separator: " ")) → \(run.status): \(run.stderr)")
    }
    let page = vital.root + "/report.html"
    #expect(try vital.run(["report", "--out", page]).status == 0)
    #expect(try String(contentsOfFile: page, encoding: .utf8).contains("</html>"))
  }

  @Test func appleHealthValuesNoRecordHoldsAreLeftOutAndCounted() throws {
    let export = vital.root + "/export.xml"
    func record(_ value: String, _ minute: Int) -> String {
      let time = String(format: "2026-11-25 09:%02d:00 +0100", minute)
      return
        #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="\#(time)" endDate="\#(time)" value="\#(value)"/>"#
    }
    let records = ["1e308", "-5000", "NaN", "inf", "120"].enumerated().map { record($1, $0) }
    try ("<HealthData locale=\"en_US\">\n" + records.joined(separator: "\n") + "\n</HealthData>\n")
      .write(toFile: export, atomically: true, encoding: .utf8)
    let run = try vital.run(["health", "import", export, "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.object?["invalid"] as? Int == 4 && run.object?["inserted"] as? Int == 1, "\(run.stdout)")
    #expect(try vital.run(["health", "summary", "--date", "2026-11-25", "--json"]).object?["steps"] as? Double == 120)
    #expect(try vital.run(["health", "import", export]).stdout.contains("4 left out"))
  }

  @Test func cycleFilesFromYearZeroAreRefusedByLine() throws {
    let drip = vital.root + "/drip.csv"
    try
      (CycleImportTests.dripColumns.joined(separator: ",") + "\n"
      + CycleImportTests.dripRow(["date": "0000-11-03", "bleeding.value": "2", "bleeding.exclude": "false"]) + "\n")
      .write(toFile: drip, atomically: true, encoding: .utf8)
    expectCleanError(try vital.run(["cycle", "import", drip]), mentioning: "line 2", "1900")
    let clue = vital.root + "/clue.json"
    try #"[{"date":"0000-10-05","type":"period","value":{"option":"heavy"}}]"#
      .write(toFile: clue, atomically: true, encoding: .utf8)
    expectCleanError(try vital.run(["cycle", "import", clue]), mentioning: "element 1", "1900")
    #expect((try vital.run(["cycle", "notes", "--json"]).json as? [Any])?.isEmpty == true)
  }
}
