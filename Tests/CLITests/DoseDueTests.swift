import Foundation
import Testing

/// A recorded dose read back from its row is due when it was scheduled, unless a late dose
/// earlier that day moved it.
@Suite struct DoseDueTests {
  @Test func aTakenDoseIsDueWhenItWasScheduled() throws {
    let vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-20T06:00:00Z"
    _ = try vital.run(
      ["account", "register", "--email", "due@example.org", "--password-stdin"], stdin: "lilac harbour 1987 teaspoon\n")
    #expect(try vital.run(["meds", "add", "Ramipril", "--at", "08:00"]).status == 0)
    vital.environment["VITAL_NOW"] = "2026-11-23T08:30:00Z"
    #expect(try vital.run(["meds", "take", "Ramipril"]).status == 0)
    let history = try vital.run(["meds", "history", "--format", "json"])
    let rows = try #require(history.json as? [[String: Any]], "\(history.stderr)")
    let taken = try #require(rows.first { $0["status"] as? String == "taken" })
    #expect(taken["due"] as? String == taken["scheduled_at"] as? String, "\(taken)")
  }
}
