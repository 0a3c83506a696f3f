import Foundation
import Testing

/// CSV for every kind (`vital export --format csv` was refused): one documented header each,
/// read back with Python's csv module (scripts/check-csv), the same bytes from a kind's own
/// `export` and from `vital export --format csv --kind`.
@Suite struct CSVExportTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T09:00:00Z"
    try ExportImportTests.register(vital, "csv@example.org")
  }

  /// The headers docs/cli.md documents, by kind.
  static let headers: [String: [String]] = [
    "donations": [
      "id", "kind", "status", "scheduled_at", "completed_at", "place", "notes", "hb_g_dl", "ferritin_ng_ml",
      "bp_systolic", "bp_diastolic", "pulse_bpm",
    ],
    "doses": ["scheduled_at", "medication", "dose", "status", "at"],
    "periods": ["id", "start", "end", "days", "excluded"],
    "notes": [
      "date", "flow", "temperature_c", "temperature_time", "temperature_excluded", "mucus", "pain", "mood", "sex",
      "text",
    ],
    "samples": ["id", "type", "value", "unit", "source", "start", "end"],
    "daily-totals": ["date", "steps", "distance_m", "energy_kcal", "exercise_min"],
    "goals": ["id", "type", "target", "unit", "title", "description"],
  ]

  func read(_ paths: [String]) throws -> [String: (header: [String], rows: [[String]])] {
    let json = try #require(
      try JSONSerialization.jsonObject(with: try runChecker("check-csv", paths)) as? [String: Any])
    return json.mapValues { value in
      let file = value as? [String: Any] ?? [:]
      return (file["header"] as? [String] ?? [], file["rows"] as? [[String]] ?? [])
    }
  }

  @Test func everyKindIsWrittenIntoAFolderWithItsHeaderAndReadsBack() throws {
    try ExportImportTests.fillEveryKind(vital)
    try ExportImportTests.ok(vital, ["meds", "add", "Iron", "--at", "20:00", "--start", "2026-11-20"])
    let folder = vital.root + "/csv"
    let run = try vital.run(["export", "--format", "csv", "--out", folder, "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    let files = try #require(run.object?["files"] as? [[String: Any]])
    #expect(
      files.map { $0["kind"] as? String }
        == Self.headers.keys.sorted { a, b in
          Self.order.firstIndex(of: a)! < Self.order.firstIndex(of: b)!
        })
    let read = try read(files.compactMap { $0["path"] as? String })
    for file in files {
      let kind = try #require(file["kind"] as? String)
      let path = try #require(file["path"] as? String)
      #expect(path == folder + "/\(kind).csv")
      let content = try #require(read[path])
      #expect(content.header == Self.headers[kind], "\(kind)")
      #expect(content.rows.count == file["rows"] as? Int, "\(kind)")
      #expect(!content.rows.isEmpty, "\(kind) has rows in a home with every kind")
    }
    let donations = try #require(read[folder + "/donations.csv"]).rows
    #expect(donations.contains { $0[5] == "DRK \"Mitte\", Berlin" && $0[7] == "13.4" }, "quotes and commas survive")
    #expect(donations.contains { $0[5] == "DRK Zehlendorf\nHaus 2" }, "a line break survives")
    let notes = try #require(read[folder + "/notes.csv"]).rows
    #expect(notes.contains { $0[0] == "2026-11-05" && $0[2] == "36.55" && $0[5] == "creamy" && $0[6] == "cramps" })
    let periods = try #require(read[folder + "/periods.csv"]).rows
    #expect(
      periods.map { [$0[1], $0[2], $0[3], $0[4]] } == [
        ["2026-10-02", "2026-10-06", "5", "1"], ["2026-10-30", "2026-11-03", "5", "0"],
      ])
    let doses = try #require(read[folder + "/doses.csv"]).rows
    #expect(doses.contains { $0[1] == "Iron" && $0[3] == "missed" && $0[4].isEmpty }, "a missed dose has no time")
    let days = try #require(read[folder + "/daily-totals.csv"]).rows
    #expect(days.allSatisfy { row in row.dropFirst().contains { !$0.isEmpty } }, "no row for a day without data")
    #expect(days.contains { row in row.dropFirst().contains { $0.isEmpty } }, "a measure without data is empty, not 0")
    #expect(!days.contains { row in row.dropFirst().contains("0") })
    let goals = try #require(read[folder + "/goals.csv"]).rows
    #expect(goals == [[goals.first?[0] ?? "", "steps", "8000", "steps", "", ""]])

    // A kind's own export and the whole export's --kind write the same bytes.
    for (command, kind) in [
      (["donor", "export"], "donations"), (["meds", "export"], "doses"), (["cycle", "export"], "periods"),
      (["cycle", "export", "--kind", "notes"], "notes"), (["health", "export"], "samples"),
      (["health", "export", "--kind", "daily-totals"], "daily-totals"), (["goals", "export"], "goals"),
    ] {
      let own = try vital.run(command)
      #expect(own.status == 0, "\(command): \(own.stderr)")
      let whole = try vital.run(["export", "--format", "csv", "--kind", kind])
      #expect(own.stdout == whole.stdout, "\(command) and --kind \(kind)")
      #expect(own.stdout == (try String(contentsOfFile: folder + "/\(kind).csv", encoding: .utf8)))
    }
  }

  static let order = ["donations", "doses", "periods", "notes", "samples", "daily-totals", "goals"]

  @Test func aFileWrittenSaysWhereAndBadRequestsWriteNothing() throws {
    try ExportImportTests.ok(vital, ["cycle", "add", "--start", "2026-11-02", "--end", "2026-11-06"])
    let path = vital.root + "/periods.csv"
    let run = try vital.run(["cycle", "export", "--out", path])
    #expect(run.status == 0 && run.stdout == "wrote 1 row of periods to \(path)\n", "\(run.stdout)")
    let json = try #require(
      try vital.run(["export", "--format", "csv", "--kind", "periods", "--out", path, "--json"]).object)
    #expect(json["rows"] as? Int == 1 && json["kind"] as? String == "periods" && json["out"] as? String == path)
    let donor = try vital.run(["donor", "export", "--out", vital.root + "/d.csv"])
    #expect(donor.stdout.hasPrefix("wrote 0 rows of donations to "), "\(donor.stdout)")

    #expect(try vital.run(["export", "--format", "csv"]).status == 64, "every kind needs a folder")
    #expect(try vital.run(["export", "--kind", "periods"]).status == 64, "--kind goes with csv")
    #expect(try vital.run(["export", "--format", "csv", "--kind", "weather"]).status == 64)
    expectCleanError(try vital.run(["export", "--format", "csv", "--out", path]), mentioning: "not a folder")
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("id,start,end"), "the file is untouched")
  }
}
