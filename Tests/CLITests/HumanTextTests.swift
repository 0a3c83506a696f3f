import Foundation
import Testing

/// Text for people: "allowed at 2026-11-26T14:00:00+01:00", `undo --list` with "create dose
/// c9dcadee@1795849200", `meds history` printing CSV on a terminal, "1 doses", "1 days".
@Suite struct HumanTextTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-26T07:30:00Z"  // Thursday 08:30 in Berlin
    try ExportImportTests.register(vital, "words@example.org")
  }

  func ok(_ arguments: [String]) throws -> Run {
    let run = try vital.run(arguments)
    #expect(run.status == 0, "\(arguments): \(run.stderr)")
    return run
  }

  @Test func timesAreSaidAsPeopleSayThemAndIsoStaysInJSON() throws {
    try _ = ok(["meds", "add", "Ibuprofen", "--as-needed", "--min-interval", "6h"])
    try _ = ok(["meds", "take", "Ibuprofen", "--at", "08:00"])
    let refused = try vital.run(["meds", "take", "Ibuprofen"])
    expectCleanError(refused, mentioning: "allowed today 14:00")
    #expect(!refused.stderr.contains("2026-11-26T"), "no ISO instant in a sentence")
    let list = try ok(["meds", "list"]).stdout
    #expect(list.contains("today 14:00"), "\(list)")
    let json = try #require(try ok(["meds", "list", "--json"]).json as? [[String: Any]])
    #expect(json.first?["next"] as? String == "2026-11-26T14:00:00+01:00", "JSON keeps ISO 8601")
    try _ = ok(["meds", "add", "Ramipril", "--at", "20:00"])
    let reminders = try ok(["reminders", "list"]).stdout
    #expect(reminders.contains("today 20:00") && reminders.contains("tomorrow 20:00"), "\(reminders)")
    #expect(reminders.contains("Sat 28 Nov 20:00"), "a weekday within the week")
  }

  @Test func undoNamesTheRecordAsItsListDoes() throws {
    try _ = ok(["meds", "add", "Metformin", "--at", "08:00", "--dose", "500 mg"])
    try _ = ok(["meds", "take", "Metformin"])
    try _ = ok(["donor", "add", "--at", "2026-11-01T10:00", "--place", "DRK Mitte"])
    try _ = ok(["goals", "add", "--type", "steps", "--target", "8000"])
    let text = try ok(["undo", "--list"]).stdout
    #expect(text.contains("create Metformin dose of today 08:00"), "\(text)")
    #expect(text.contains("create medication Metformin"))
    #expect(text.contains("create donation Sun 1 Nov 10:00, DRK Mitte"))
    #expect(text.contains("create goal 8000 steps"))
    #expect(!text.contains("@"), "no medication id and epoch: \(text)")
    // A deleted record is named from the values the journal kept.
    try _ = ok(["goals", "delete", String(try goalID().prefix(8)), "--yes"])
    #expect(try ok(["undo", "--list"]).stdout.contains("delete goal 8000 steps"))
  }

  func goalID() throws -> String {
    let goals = try #require(try ok(["goals", "list", "--json"]).json as? [[String: Any]])
    return try #require(goals.first?["id"] as? String)
  }

  @Test func countsAgreeWithTheirNouns() throws {
    try _ = ok(["meds", "add", "Ibuprofen", "--as-needed"])
    try _ = ok(["meds", "take", "Ibuprofen", "--at", "08:00"])
    let stats = try ok(["meds", "stats", "--days", "1"]).stdout
    #expect(stats.contains("last 1 day,") && stats.contains("1 dose on 1 day"), "\(stats)")
    #expect(!stats.contains("1 doses") && !stats.contains("1 days"))
    try _ = ok(["cycle", "add", "--start", "2026-11-20", "--end", "2026-11-20"])
    #expect(try ok(["cycle", "list"]).stdout.contains("2026-11-20  1 day"))
    let added = try ok(["goals", "add", "--type", "steps", "--target", "8000"]).stdout
    #expect(
      added.hasPrefix("added: ") && !added.contains(" \n") && added.split(separator: " ")[1].count == 8, "\(added)")
  }

  @Test func medsHistoryIsCSVInAPipe() throws {
    try _ = ok(["meds", "add", "Metformin", "--at", "08:00"])
    try _ = ok(["meds", "take", "Metformin"])
    let piped = try ok(["meds", "history"]).stdout
    #expect(piped.hasPrefix("scheduled_at,medication,dose,status,at\r\n"))
  }

  @Test(.enabled(if: VitalHome.terminalsAvailable, "needs a pseudo-terminal (/dev/pts)"))
  func medsHistoryIsATableOnATerminal() throws {
    try _ = ok(["meds", "add", "Metformin", "--at", "08:00"])
    try _ = ok(["meds", "take", "Metformin"])
    let screen = try vital.runOnTerminal(["meds", "history"], answers: [])
    #expect(
      screen.contains("scheduled") && screen.contains("today 08:00") && !screen.contains("scheduled_at,"), "\(screen)")
    let csv = try vital.runOnTerminal(["meds", "history", "--format", "csv"], answers: [])
    #expect(csv.contains("scheduled_at,medication"))
  }

  /// A dose taken on the minute said only "taken: Metformin"; an undo named "create health
  /// sample 0a2d9f71"; `meds list` skipped an overdue dose for the next one.
  @Test func dosesAndUndoneRecordsAreNamed() throws {
    vital.environment["VITAL_NOW"] = "2026-11-26T07:00:00Z"  // 08:00 in Berlin
    try _ = ok(["meds", "add", "Metformin", "--at", "08:00", "--at", "20:00"])
    #expect(try ok(["meds", "take", "Metformin"]).stdout.hasPrefix("taken: Metformin, dose of today 08:00"))
    vital.environment["VITAL_NOW"] = "2026-11-26T19:45:00Z"  // 20:45: the 20:00 dose is open
    #expect(try ok(["meds", "list"]).stdout.contains("today 20:00"), "the open dose, not tomorrow's")
    try _ = ok(["health", "add", "--type", "steps", "--value", "4200", "--at", "09:00"])
    let undone = try ok(["undo", "--yes"]).stdout
    #expect(undone.contains("create sample 4200 steps at today 09:00"), "\(undone)")
    #expect(try ok(["undo", "--list"]).stdout.contains("create sample 4200 steps at today 09:00 (undone)"))
    try _ = ok(["undo", "--yes"])  // the take
    #expect(try ok(["undo", "--list"]).stdout.contains("create Metformin dose of today 08:00 (undone)"))
  }

  /// The night clocks go back, 02:30 happens twice: `health list` said "02:30" for both samples.
  @Test func aTimeThatHappensTwiceSaysItsOffset() throws {
    try _ = ok(["health", "add", "--type", "steps", "--value", "100", "--at", "2026-10-25T02:30:00+02:00"])
    try _ = ok(["health", "add", "--type", "steps", "--value", "200", "--at", "2026-10-25T02:30:00+01:00"])
    try _ = ok(["health", "add", "--type", "steps", "--value", "300", "--at", "2026-10-25T04:30:00+01:00"])
    let listed = try ok(["health", "list", "--date", "2026-10-25"]).stdout
    #expect(listed.contains("02:30 +02:00") && listed.contains("02:30 +01:00"), "\(listed)")
    #expect(listed.contains("04:30") && !listed.contains("04:30 +"), "an hour that happens once has no offset")
  }
}
