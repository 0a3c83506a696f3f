import Foundation
import Testing

/// What the blood service measured at a donation: given to `record`, `complete` and `edit`,
/// listed by `donor vitals`, carried by the CSV.
@Suite struct DonorVitalsTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T09:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "donor@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
    try #require(try vital.run(["profile", "set", "--sex", "female", "--region", "de"]).status == 0)
  }

  func record(_ at: String, _ options: [String]) throws -> [String: Any] {
    let run = try vital.run(["donor", "record", "--at", at, "--place", "DRK", "--json"] + options)
    try #require(run.status == 0, "\(run.stderr)")
    return try #require(run.object)
  }

  @Test func figuresAreStoredConvertedAndListedWithTheTrend() throws {
    let first = try record("2026-02-01T10:00", ["--hb", "13.4", "--bp", "121/79", "--pulse", "68", "--ferritin", "41"])
    let vitals = try #require(first["vitals"] as? [String: Any])
    #expect(vitals["hb_g_dl"] as? Double == 13.4)
    #expect(vitals["bp_systolic"] as? Int == 121 && vitals["bp_diastolic"] as? Int == 79)
    // 7.6 mmol/L × 1.6114 = 12.25 g/dL, kept to the tenth as services print it.
    let second = try record("2026-05-01T10:00", ["--hb-mmol", "7.6", "--ferritin", "24"])
    #expect((second["vitals"] as? [String: Any])?["hb_g_dl"] as? Double == 12.2)
    _ = try record("2026-08-01T10:00", ["--hb", "12.8"])
    _ = try record("2026-09-01T10:00", [])  // no figures: not listed

    let listed = try #require(try vital.run(["donor", "vitals", "--json"]).object)
    #expect(listed["minimum_hb_g_dl"] as? Double == 12.5, "de, female")
    let rows = try #require(listed["donations"] as? [[String: Any]])
    #expect(rows.count == 3)
    #expect(rows.map { $0["below_minimum"] as? Bool } == [false, true, false])
    #expect(rows.map { $0["hb_change"] as? Double } == [nil, -1.2, 0.6])
    let slope = try #require(listed["hb_g_dl_per_year"] as? Double)
    #expect(slope < 0, "13.4, 12.2, 12.8 over half a year goes down")
    #expect(try vital.run(["donor", "vitals"]).stdout.contains("12.2 (low)"))

    // A man in the US may give from 13.0 g/dL.
    #expect(try vital.run(["profile", "set", "--sex", "male", "--region", "us"]).status == 0)
    #expect(try vital.run(["donor", "vitals", "--json"]).object?["minimum_hb_g_dl"] as? Double == 13.0)
  }

  @Test func completeAndEditTakeFiguresAndEditRemovesThem() throws {
    let answers = try vital.run(["donor", "questions", "--json"]).json as? [[String: Any]] ?? []
    let none = Dictionary(uniqueKeysWithValues: answers.compactMap { $0["id"] as? String }.map { ($0, false) })
    let body = String(decoding: try JSONSerialization.data(withJSONObject: none), as: UTF8.self)
    #expect(try vital.run(["donor", "questionnaire", "--answers", "-"], stdin: body).status == 0)
    let booked = try #require(
      try vital.run(["donor", "book", "--at", "2026-11-25T09:30", "--place", "DRK", "--json"]).object)
    let id = try #require(booked["id"] as? String)
    expectCleanError(
      try vital.run(["donor", "edit", id, "--hb", "14"]), mentioning: "measurements belong to a completed donation")

    vital.environment["VITAL_NOW"] = "2026-11-25T12:00:00Z"
    let done = try vital.run(["donor", "complete", "--hb", "14.1", "--bp", "124/78", "--json"])
    #expect((done.object?["vitals"] as? [String: Any])?["hb_g_dl"] as? Double == 14.1, "\(done.stderr)")
    let edited = try vital.run(["donor", "edit", id, "--pulse", "72", "--bp", "", "--json"])
    let vitals = try #require(edited.object?["vitals"] as? [String: Any], "\(edited.stderr)")
    #expect(vitals["pulse_bpm"] as? Int == 72 && vitals["hb_g_dl"] as? Double == 14.1)
    #expect(vitals["bp_systolic"] is NSNull && vitals["bp_diastolic"] is NSNull)
    #expect(try vital.run(["donor", "show", id]).stdout.contains("72 /min"))
  }

  @Test(arguments: [
    (["--hb", "141"], "haemoglobin must be within"),
    (["--hb-mmol", "30"], "haemoglobin must be within"),
    (["--bp", "80/120"], "blood pressure must be within"),
    (["--pulse", "400"], "pulse must be within"),
    (["--ferritin", "9000"], "ferritin must be within"),
  ])
  func figuresOutOfRangeAreRefusedAndNothingIsWritten(options: [String], message: String) throws {
    let run = try vital.run(["donor", "record", "--at", "2026-02-01T10:00", "--place", "DRK"] + options)
    expectCleanError(run, mentioning: message)
    #expect(!run.stderr.contains(options[1]), "errors carry no health values")
    #expect((try vital.run(["donor", "history", "--json"]).json as? [Any])?.isEmpty == true)
  }

  @Test func malformedFiguresAreUsageErrors() throws {
    for options in [["--bp", "120"], ["--hb", "high"], ["--pulse", "6.5"], ["--hb", "14", "--hb-mmol", "8.7"]] {
      let run = try vital.run(["donor", "record", "--at", "2026-02-01T10:00", "--place", "DRK"] + options)
      #expect(run.status == 64, "\(options): \(run.stderr)")
    }
  }

  @Test func theCSVCarriesFiguresAndOldFilesKeepThem() throws {
    let first = try record("2026-02-01T10:00", ["--hb", "13.4", "--bp", "121/79", "--pulse", "68", "--ferritin", "41"])
    let id = try #require(first["id"] as? String)
    _ = try record("2026-05-01T10:00", [])
    let file = vital.root + "/out.csv"
    #expect(try vital.run(["donor", "export", "--out", file]).status == 0)
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(
      text.hasPrefix(
        "id,kind,status,scheduled_at,completed_at,place,notes,hb_g_dl,ferritin_ng_ml,bp_systolic,bp_diastolic,pulse_bpm\r\n"
      ))
    #expect(text.contains(",13.4,41.0,121,79,68\r\n"))

    let fresh = try VitalHome()
    fresh.environment = vital.environment
    try #require(
      try fresh.run(
        ["account", "register", "--email", "donor@example.org", "--password-stdin"],
        stdin: "lilac harbour 1987 teaspoon\n"
      ).status == 0)
    #expect(try fresh.run(["donor", "import", file, "--json"]).object?["inserted"] as? Int == 2)
    let again = fresh.root + "/again.csv"
    #expect(try fresh.run(["donor", "export", "--out", again]).status == 0)
    #expect(try String(contentsOfFile: again, encoding: .utf8) == text)

    // A file from before the figures (seven columns) imports and leaves the stored ones alone.
    let old =
      text.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(7) }
      .map { $0.joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    let oldFile = fresh.root + "/old.csv"
    try Data(old.replacingOccurrences(of: ",DRK,", with: ",DRK Mitte,").utf8).write(to: URL(fileURLWithPath: oldFile))
    let summary = try #require(try fresh.run(["donor", "import", oldFile, "--json"]).object)
    #expect(summary["updated"] as? Int == 2)
    let shown = try #require(try fresh.run(["donor", "show", id, "--json"]).object)
    #expect(shown["place"] as? String == "DRK Mitte")
    #expect((shown["vitals"] as? [String: Any])?["hb_g_dl"] as? Double == 13.4)
  }

  @Test(arguments: [
    ("not a number", ",abc,,,,", "line 2: hb_g_dl is not a number"),
    ("out of range", ",40,,,,", "line 2: haemoglobin must be within"),
    ("half a pressure", ",,,120,,", "line 2: give blood pressure as both numbers"),
    ("fractional pulse", ",,,,,70.5", "line 2: pulse_bpm must be a whole number"),
  ])
  func badFiguresInTheCSVAreRefused(name: String, figures: String, message: String) throws {
    let text =
      "id,kind,status,scheduled_at,completed_at,place,notes,hb_g_dl,ferritin_ng_ml,bp_systolic,bp_diastolic,pulse_bpm\r\n"
      + "e0b8a9f0-5a3c-4f44-9a77-1c1c2a1d2e3f,whole-blood,completed,,2025-05-01T10:00:00+02:00,DRK,\(figures)\r\n"
    let file = vital.root + "/bad.csv"
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    expectCleanError(try vital.run(["donor", "import", file]), mentioning: message)
    #expect((try vital.run(["donor", "history", "--json"]).json as? [Any])?.isEmpty == true, "\(name)")
  }
}
