import Foundation
import Testing

/// Samples from the command line: typed ones corrected, imported ones read-only but deletable,
/// and a deleted one stays deleted when the export is imported again.
@Suite struct HealthEditTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-23T13:30:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "samples@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
  }

  func list(_ arguments: [String] = []) throws -> [[String: Any]] {
    let run = try vital.run(["health", "list", "--json"] + arguments)
    try #require(run.status == 0, "\(run.stderr)")
    return try #require(run.json as? [[String: Any]])
  }

  @Test func aTypedSampleIsCorrectedAndTheTotalFollows() throws {
    let added = try vital.run(["health", "add", "--type", "steps", "--value", "4000", "--at", "2026-11-23T09:00"])
    #expect(added.status == 0, "\(added.stderr)")
    let id = try #require(try list().first?["id"] as? String)
    #expect(added.stdout.contains(String(id.prefix(8))), "the add says its id")
    let edited = try vital.run(["health", "edit", String(id.prefix(6)), "--value", "4200", "--json"])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(try vital.run(["health", "summary", "--json"]).object?["steps"] as? Double == 4200)
    #expect(try vital.run(["health", "edit", id, "--at", "2026-11-22T20:00"]).status == 0)
    #expect(try list().isEmpty)
    #expect(try list(["--date", "2026-11-22"]).first?["value"] as? Double == 4200)
    expectCleanError(try vital.run(["health", "edit", id, "--at", "2026-11-24T20:00"]), mentioning: "future")
    let unknown = try vital.run(["health", "list", "--type", "stepz"])
    #expect(unknown.status == 64 && unknown.stderr.contains("steps") && unknown.stderr.contains("sleep"))
  }

  @Test func anImportedSampleIsReadOnlyAndItsDeleteSurvivesAReimport() throws {
    let export = HealthCLITests.fixtures + "/apple-health/ios17-export.xml"
    #expect(try vital.run(["health", "import", export]).status == 0)
    let day = ["--date", "2024-01-01"]
    let before = try list(day)
    #expect(before.count == 2)
    let id = try #require(before.first?["id"] as? String)
    #expect(before.first?["manual"] as? Bool == false)
    expectCleanError(try vital.run(["health", "edit", id, "--value", "1"]), mentioning: "read-only", "delete")
    #expect(try vital.run(["health", "delete", id, "--yes"]).status == 0)
    #expect(try list(day).count == 1)
    let again = try vital.run(["health", "import", export, "--json"])
    #expect(again.object?["inserted"] as? Int == 0)
    #expect(try list(day).count == 1, "a tombstone, not a re-insert")
    // Undo of the delete, then of the import (the whole import as one change).
    let changes = try #require(try vital.run(["undo", "--list", "--json"]).json as? [[String: Any]])
    #expect(changes.first?["command"] as? String == "health delete")
    #expect(try vital.run(["undo", "--yes"]).status == 0)
    #expect(try list(day).count == 2)
    let importUndo = try vital.run(["undo", "--yes"])
    #expect(importUndo.status == 0, "\(importUndo.stderr)")
    #expect(importUndo.stdout.contains("health import"))
    #expect(try list(day).isEmpty)
    // Taking the undo back cannot bring imported samples back (they are not kept): it says so
    // in words, not in table names.
    let numbers = try #require(try vital.run(["undo", "--list", "--json"]).json as? [[String: Any]])
    let undoNumber = try #require(numbers.first?["number"] as? Int, "\(numbers.first ?? [:])")
    let back = try vital.run(["undo", String(undoNumber), "--yes"])
    #expect(back.status == 0 && back.stderr.contains("warning: the health sample records"), "\(back.stderr)")
    #expect(!back.stderr.contains("_"), "\(back.stderr)")
    #expect(try list(day).isEmpty)
    #expect(try vital.run(["health", "import", export, "--json"]).object?["inserted"] as? Int ?? 0 > 0)
    #expect(try list(day).count == 2, "an import taken back comes back when imported again")
  }
}
