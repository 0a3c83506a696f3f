import Foundation
import Testing

/// Medication figures as a doctor reads them: adherence counts scheduled doses only, a schedule
/// started in the past takes its doses from then, and one added during the day leaves that
/// day's earlier doses open.
@Suite struct HonestMedsTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-20T08:00:00Z"  // 09:00 in Berlin
    try ExportImportTests.register(vital, "meds-honest@example.org")
  }

  func ok(_ arguments: [String]) throws { try ExportImportTests.ok(vital, arguments) }
  func at(_ utc: String) { vital.environment["VITAL_NOW"] = utc }

  func stats(_ days: Int) throws -> [[String: Any]] {
    try #require(try vital.run(["meds", "stats", "--days", "\(days)", "--json"]).json as? [[String: Any]])
  }

  /// `vital report` said "21 of 31 due doses taken" with an as-needed Ibuprofen counted as due,
  /// where `vital meds stats --days 90` said 19 of 31.
  @Test func theReportAndMedsStatsGiveTheSameAdherenceAndLeaveAsNeededDosesOut() throws {
    try ok(["meds", "add", "Metformin", "--at", "08:00", "--at", "20:00", "--dose", "500 mg", "--start", "2026-11-15"])
    try ok(["meds", "add", "Ibuprofen", "--as-needed", "--min-interval", "4h", "--dose", "400 mg"])
    for (day, time) in [("16", "08:05"), ("16", "20:10"), ("17", "08:00"), ("18", "21:00"), ("19", "08:30")] {
      try ok(["meds", "take", "Metformin", "--at", "2026-11-\(day)T\(time)"])
    }
    try ok(["meds", "skip", "Metformin", "--at", "2026-11-17T20:00"])
    for day in ["16", "17", "18", "19"] { try ok(["meds", "take", "Ibuprofen", "--at", "2026-11-\(day)T13:00"]) }
    at("2026-11-21T10:00:00Z")

    let all = try stats(90)
    let metformin = try #require(all.first { $0["name"] as? String == "Metformin" })
    // 15 Nov 08:00 to 21 Nov 08:00 decided: 13 doses; 21 Nov 08:00 missed at 20:00 only, so open.
    #expect(metformin["taken"] as? Int == 5 && metformin["skipped"] as? Int == 1)
    let decided = (metformin["taken"] as! Int) + (metformin["skipped"] as! Int) + (metformin["missed"] as! Int)
    #expect(metformin["open"] as? Int == 1 && metformin["scheduled"] as? Int == decided + 1)
    let ibuprofen = try #require(all.first { $0["name"] as? String == "Ibuprofen" })
    #expect(ibuprofen["as_needed"] as? Bool == true && ibuprofen["taken"] as? Int == 4)
    #expect(ibuprofen["adherence"] == nil && ibuprofen["scheduled"] == nil, "as needed has no adherence")

    let page = vital.root + "/report.html"
    try ok(["report", "--out", page])
    let html = try String(contentsOfFile: page, encoding: .utf8)
    let summary = try #require(html.firstMatch(of: /(\d+) of (\d+) due doses taken \((\d+) %\)/))
    #expect(Int(summary.1) == metformin["taken"] as? Int, "the report's taken is meds stats' taken")
    #expect(Int(summary.2) == decided, "the report's due doses are meds stats' decided ones")
    #expect(Double(summary.3) == ((metformin["adherence"] as? Double) ?? -1).rounded())
    #expect(html.contains("4 doses taken as needed, not counted"))
    #expect(
      html.contains("18 Nov 2026: 1 of 2 due doses taken; 1 dose as needed</title>"),
      "the day's as-needed dose is named, not counted as due")
  }

  /// A taper with `--start` two days ago: `meds take --at 07:30` was refused ("no scheduled dose
  /// within 12 hours") and the report said it started today.
  @Test func aTaperStartedInThePastTakesItsDosesFromItsStart() throws {
    try ok(["meds", "add", "Prednisolone", "--at", "07:30", "--steps", "20 mg:3d,10 mg:3d", "--start", "2026-11-18"])
    let take = try vital.run(["meds", "take", "Prednisolone", "--at", "07:30", "--json"])
    #expect(take.status == 0, "\(take.stderr)")
    #expect(take.object.flatMap { $0["dose"] as? [String: Any] }?["dose"] as? String == "20 mg")
    try ok(["meds", "take", "Prednisolone", "--at", "2026-11-18T07:40"])
    let stats = try #require(try stats(7).first)
    #expect(stats["scheduled"] as? Int == 3 && stats["taken"] as? Int == 2 && stats["missed"] as? Int == 1)
    let page = vital.root + "/report.html"
    try ok(["report", "--out", page])
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("18 Nov 2026"), "since the taper's first day")
    #expect(!html.contains("since 20 Nov 2026"))
    expectCleanError(
      try vital.run(["meds", "add", "Iron", "--as-needed", "--start", "2026-11-01"]), mentioning: "--start")
    expectCleanError(
      try vital.run(["meds", "add", "Iron", "--at", "08:00", "--start", "2024-01-01"]), mentioning: "year")
  }

  /// Added at 13:00 with 08:00 and 20:00: the morning's dose taken before could not be recorded,
  /// and a take at 14:30 booked 20:00.
  @Test func aMedicationAddedDuringTheDayLeavesThatDaysEarlierDosesOpen() throws {
    at("2026-11-20T12:00:00Z")  // 13:00 in Berlin
    try ok(["meds", "add", "Ramipril", "--at", "08:00", "--at", "20:00"])
    at("2026-11-20T13:30:00Z")
    let take = try #require(try vital.run(["meds", "take", "Ramipril", "--json"]).object)
    let dose = try #require(take["dose"] as? [String: Any])
    #expect(dose["scheduled_at"] as? String == "2026-11-20T08:00:00+01:00", "the morning's dose, not the evening's")

    try ok(["meds", "add", "Iron", "--at", "08:00", "--at", "20:00"])
    let today = try #require(try vital.run(["--json"]).object)
    let due = try #require(today["doses"] as? [[String: Any]])
    #expect(!due.contains { $0["medication"] as? String == "Iron" }, "its 08:00 is not overdue: \(due)")
    at("2026-11-20T19:05:00Z")  // 20:05: the evening dose is due, Iron's morning one never was
    let evening = try #require(try vital.run(["meds", "take", "Iron", "--json"]).object)
    #expect((evening["dose"] as? [String: Any])?["scheduled_at"] as? String == "2026-11-20T20:00:00+01:00")
    at("2026-11-21T10:00:00Z")
    let all = try stats(2)
    let iron = try #require(all.first { $0["name"] as? String == "Iron" })
    #expect(iron["missed"] as? Int == 0, "the 08:00 before it was added is never missed")
    #expect(iron["scheduled"] as? Int == 2 && iron["taken"] as? Int == 1, "20 Nov 20:00 and 21 Nov 08:00")
    let ramipril = try #require(all.first { $0["name"] as? String == "Ramipril" })
    #expect(ramipril["taken"] as? Int == 1 && ramipril["missed"] as? Int == 1, "08:00 taken, 20:00 missed")
  }
}
