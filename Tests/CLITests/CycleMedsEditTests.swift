import Foundation
import Storage
import Testing

/// Periods, medications and doses corrected from the command line, with their rules.
@Suite struct CycleMedsEditTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-23T13:30:00Z"  // 14:30 in Berlin
    let run = try vital.run(
      ["account", "register", "--email", "edit@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
  }

  func json(_ arguments: [String]) throws -> [String: Any] {
    let run = try vital.run(arguments + ["--json"])
    try #require(run.status == 0, "\(arguments): \(run.stderr)")
    return try #require(run.object)
  }

  @Test func aPeriodIsEditedByIdOrFirstDayAndCannotOverlapAnother() throws {
    let first = try json(["cycle", "log", "--start", "2026-09-01", "--end", "2026-09-05"])
    _ = try json(["cycle", "log", "--start", "2026-10-01", "--end", "2026-10-05"])
    let id = try #require(first["id"] as? String)
    #expect(try json(["cycle", "edit", String(id.prefix(6)), "--end", "2026-09-06"])["end"] as? String == "2026-09-06")
    expectCleanError(
      try vital.run(["cycle", "edit", "2026-09-01", "--end", "2026-10-02"]), mentioning: "overlaps", "2026-10-01")
    expectCleanError(try vital.run(["cycle", "edit", "2026-09-01", "--start", "2026-09-08"]), mentioning: "before")
    expectCleanError(try vital.run(["cycle", "edit", "2026-10-01", "--end", "2026-12-01"]), mentioning: "future")
    #expect(try json(["cycle", "show", "2026-09-01"])["end"] as? String == "2026-09-06", "refusals wrote nothing")
    // '' makes the latest period ongoing again.
    #expect(try json(["cycle", "edit", "2026-10-01", "--end", ""])["end"] is NSNull)
    #expect(try json(["cycle", "edit", "2026-10-01", "--start", "2026-10-02"])["start"] as? String == "2026-10-02")
    let list = try vital.run(["cycle", "list"])
    #expect(list.stdout.hasPrefix("id"), "a header: \(list.stdout)")
    #expect(list.stdout.contains(String(id.prefix(8))))
    #expect(try vital.run(["cycle", "delete", "2026-10-02", "--yes"]).status == 0)
    expectCleanError(try vital.run(["cycle", "show", "2026-10-02"]), mentioning: "no period")
    #expect(try vital.run(["undo", "--yes"]).status == 0)
    #expect(try json(["cycle", "show", "2026-10-02"])["end"] is NSNull)
  }

  @Test func aLateMorningTakeIsTheMorningDoseAndSaysSo() throws {
    vital.environment["VITAL_NOW"] = "2026-11-22T05:00:00Z"
    _ = try json(["meds", "add", "Ibuprofen", "--at", "08:00", "--at", "20:00"])
    vital.environment["VITAL_NOW"] = "2026-11-23T13:30:00Z"
    let taken = try vital.run(["meds", "take", "Ibuprofen"])
    #expect(taken.status == 0, "\(taken.stderr)")
    #expect(taken.stdout.contains("08:00"), "says which dose: \(taken.stdout)")
    let doses = try #require(try vital.run(["meds", "history", "--format", "json"]).json as? [[String: Any]])
    let today = doses.filter { ($0["scheduled_at"] as? String)?.hasPrefix("2026-11-23") == true }
    #expect(today.first { ($0["key"] as? String) == "Ibuprofen@2026-11-23T08:00" }?["status"] as? String == "taken")
    #expect(today.allSatisfy { $0["status"] as? String != "missed" }, "the morning dose is not missed: \(today)")
    // --dose names one; a time not in the schedule is refused.
    let evening = try json(["meds", "take", "Ibuprofen", "--dose", "20:00"])
    #expect((evening["dose"] as? [String: Any])?["key"] as? String == "Ibuprofen@2026-11-23T20:00")
    expectCleanError(try vital.run(["meds", "skip", "Ibuprofen", "--dose", "09:00"]), mentioning: "08:00, 20:00")
  }

  @Test func aMedicationAndItsDosesAreCorrectedFieldByField() throws {
    vital.environment["VITAL_NOW"] = "2026-11-22T05:00:00Z"
    let added = try json(["meds", "add", "Levothyroxine", "--at", "07:00", "--dose", "50 µg", "--stock", "30"])
    let id = try #require(added["id"] as? String)
    vital.environment["VITAL_NOW"] = "2026-11-23T13:30:00Z"
    _ = try json(["meds", "take", "levothyroxine", "--at", "2026-11-23T07:10"])
    let edited = try json(["meds", "edit", String(id.prefix(5)), "--at", "06:30", "--days", "mon,tue", "--dose", ""])
    #expect(edited["times"] as? [String] == ["06:30"])
    #expect(edited["days"] as? [String] == ["mon", "tue"])
    #expect(edited["dose"] is NSNull)
    #expect(edited["name"] as? String == "Levothyroxine")
    #expect(try json(["meds", "edit", "Levothyroxine", "--days", ""])["days"] is NSNull)
    expectCleanError(try vital.run(["meds", "edit", "Levothyroxine", "--at", "25:00"]), mentioning: "HH:MM")
    _ = try json(["meds", "add", "Vitamin D", "--at", "12:00"])
    expectCleanError(try vital.run(["meds", "edit", "vitamin d", "--name", "levothyroxine"]), mentioning: "exists")

    let key = "Levothyroxine@2026-11-23T07:00"
    #expect(try json(["meds", "dose", "show", key])["status"] as? String == "taken")
    let moved = try json(["meds", "dose", "edit", key, "--at", "2026-11-23T06:50"])
    #expect(moved["at"] as? String == "2026-11-23T06:50:00+01:00")
    expectCleanError(
      try vital.run(["meds", "dose", "edit", key, "--at", "2026-11-22T17:00"]), mentioning: "12 hours")
    #expect(try json(["meds", "dose", "edit", key, "--status", "skipped"])["status"] as? String == "skipped")
    expectCleanError(
      try vital.run(["meds", "dose", "edit", key, "--status", "missed"]), mentioning: "taken or skipped")
    #expect(try vital.run(["meds", "dose", "delete", key, "--yes"]).status == 0)
    expectCleanError(try vital.run(["meds", "dose", "show", key]), mentioning: "no recorded dose")
    #expect(try vital.run(["undo", "--yes"]).status == 0)
    #expect(try json(["meds", "dose", "show", key])["status"] as? String == "skipped")
    #expect(try vital.run(["meds", "rm", "vitamin d", "--yes"]).status == 0)
    #expect(try json(["meds", "show", id])["name"] as? String == "Levothyroxine")
  }

  @Test func aWatchedPlaceIsRenamedMovedAndDeletedByLabelOrId() throws {
    let added = try json(["area", "watch", "add", "--lat", "52.52", "--lon", "13.405", "--label", "Home"])
    let id = try #require(added["id"] as? String)
    let list = try vital.run(["area", "watch", "list"])
    #expect(list.stdout.hasPrefix("id"))
    #expect(list.stdout.contains(String(id.prefix(8))))
    #expect(try json(["area", "watch", "edit", "home", "--label", "Old home"])["label"] as? String == "Old home")
    let moved = try json(["area", "watch", "edit", String(id.prefix(6)), "--lat", "48.137"])
    #expect(moved["lat"] as? Double == 48.137)
    #expect(moved["lon"] as? Double == 13.405)
    expectCleanError(try vital.run(["area", "watch", "edit", "Old home", "--label", " "]), mentioning: "label")
    #expect(try vital.run(["area", "watch", "rm", "old home", "--yes"]).status == 0)
    expectCleanError(try vital.run(["area", "watch", "show", id]), mentioning: "vital area watch list")
    #expect(try vital.run(["undo", "--yes"]).status == 0)
    #expect(try json(["area", "watch", "show", "Old home"])["lat"] as? Double == 48.137)
  }
}
