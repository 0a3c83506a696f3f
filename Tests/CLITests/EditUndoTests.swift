import Foundation
import Storage
import Testing

/// Correcting mistakes from the command line: show, edit, delete by id or prefix, and undo,
/// each run as its own process (so an undo also works after a restart).
@Suite struct EditUndoTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T09:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "donor@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
    try #require(
      try vital.run(["profile", "set", "--sex", "female", "--weight-kg", "60", "--birth-date", "1990-05-01"]).status
        == 0)
  }

  func record(_ at: String, place: String = "DRK Mitte", kind: String = "whole-blood") throws -> String {
    let run = try vital.run(["donor", "record", "--at", at, "--place", place, "--kind", kind, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    return try #require(run.object?["id"] as? String)
  }

  func show(_ id: String) throws -> [String: Any] {
    let run = try vital.run(["donor", "show", id, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    return try #require(run.object)
  }

  func count() throws -> Int {
    let db = try Database(path: vital.home + "/vital.sqlite")
    return try db.scalar(Int.self, "SELECT count(*) FROM donation") ?? -1
  }

  func passQuestionnaire() throws {
    let questions = try #require(try vital.run(["donor", "questions", "--json"]).json as? [[String: Any]])
    let answers = Dictionary(uniqueKeysWithValues: questions.compactMap { $0["id"] as? String }.map { ($0, false) })
    let text = String(decoding: try JSONSerialization.data(withJSONObject: answers), as: UTF8.self)
    try #require(try vital.run(["donor", "questionnaire", "--answers", "-"], stdin: text).status == 0)
  }

  @Test func everyFieldOfADonationCanBeShownEditedAndCleared() throws {
    let id = try record("2026-06-01T10:00")
    let prefix = String(id.prefix(5))
    #expect(try show(prefix)["place"] as? String == "DRK Mitte")
    let edited = try vital.run(
      [
        "donor", "edit", prefix, "--place", "Uniklinik", "--notes", "felt dizzy", "--kind", "plasma", "--at",
        "2026-06-02T11:30", "--json",
      ])
    #expect(edited.status == 0, "\(edited.stderr)")
    let after = try show(id)
    #expect(after["place"] as? String == "Uniklinik")
    #expect(after["notes"] as? String == "felt dizzy")
    #expect(after["kind"] as? String == "plasma")
    #expect(after["completed_at"] as? String == "2026-06-02T11:30:00+02:00")
    #expect(try vital.run(["donor", "edit", prefix, "--notes", ""]).status == 0)
    #expect(try show(id)["notes"] is NSNull)
    // Only the named field changed.
    #expect(try show(id)["place"] as? String == "Uniklinik")
    expectCleanError(try vital.run(["donor", "edit", prefix, "--place", "  "]), mentioning: "--place")
    let nothing = try vital.run(["donor", "edit", prefix])
    #expect(nothing.status == 64, "a usage error: \(nothing.stderr)")
  }

  @Test func idsByPrefixAreRefusedWhenTooShortAmbiguousOrUnknown() throws {
    var ids: [String] = []
    for day in 1...20 { ids.append(try record(String(format: "2026-0%d-%02dT10:00", 1 + day % 5, day))) }
    // Among 20 random ids, some two share their first character; find a shared prefix.
    let sorted = ids.sorted()
    let pair = try #require(zip(sorted, sorted.dropFirst()).first { $0.prefix(1) == $1.prefix(1) })
    let shared = String(pair.0.prefix(zip(pair.0, pair.1).prefix { $0 == $1 }.count))
    if shared.count >= 4 {
      expectCleanError(try vital.run(["donor", "show", shared]), mentioning: "more characters")
    } else {
      expectCleanError(try vital.run(["donor", "show", shared]), mentioning: "no donation")
    }
    expectCleanError(try vital.run(["donor", "show", "zzzzzzzz"]), mentioning: "no donation", "vital donor history")
    #expect(try show(ids[3].uppercased().prefix(8).description)["id"] as? String == ids[3])
  }

  @Test func anEditThatBreaksARuleIsRefusedAndWritesNothing() throws {
    let first = try record("2026-06-01T10:00")
    let second = try record("2026-11-01T10:00")
    // Onto the day of another whole-blood donation: refused, unless --force.
    expectCleanError(
      try vital.run(["donor", "edit", second, "--at", "2026-06-01T15:00"]), mentioning: "already", "--force")
    expectCleanError(try vital.run(["donor", "edit", first, "--at", "2026-12-01T10:00"]), mentioning: "future")
    #expect(try show(second)["completed_at"] as? String == "2026-11-01T10:00:00+01:00")
    // An appointment moved before the interval allows is refused, as booking it would be.
    try passQuestionnaire()
    let booked = try vital.run(["donor", "book", "--at", "2026-12-28T09:30", "--place", "DRK", "--json"])
    try #require(booked.status == 0, "\(booked.stderr)")
    let appointment = try #require(booked.object?["id"] as? String)
    expectCleanError(
      try vital.run(["donor", "edit", appointment, "--at", "2026-11-23T09:30"]), mentioning: "choose a later date")
    // A past donation moved later would leave the appointment too early: refused too.
    expectCleanError(
      try vital.run(["donor", "edit", second, "--at", "2026-11-20T10:00"]), mentioning: "move or cancel")
    #expect(try show(second)["completed_at"] as? String == "2026-11-01T10:00:00+01:00")
    #expect(try vital.run(["donor", "edit", appointment, "--at", "2027-01-27T09:30"]).status == 0)
    let undo = try vital.run(["undo", "--list", "--json"])
    let commands = (undo.json as? [[String: Any]])?.compactMap { $0["command"] as? String }
    #expect(commands?.filter { $0 == "donor edit" }.count == 1, "refused edits leave nothing to undo")
  }

  @Test func theFirstHourTrapsOfRecordAndComplete() throws {
    _ = try record("2026-06-01T10:00")
    expectCleanError(
      try vital.run(["donor", "record", "--at", "2026-06-01T18:00", "--place", "DRK"]), mentioning: "--force")
    #expect(try count() == 1)
    #expect(try vital.run(["donor", "record", "--at", "2026-06-01T18:00", "--place", "DRK", "--force"]).status == 0)
    // Another kind the same day is no duplicate.
    #expect(
      try vital.run(["donor", "record", "--at", "2026-06-01T18:00", "--place", "DRK", "--kind", "plasma"]).status == 0)

    try passQuestionnaire()
    #expect(try vital.run(["donor", "book", "--at", "2027-01-20T09:30", "--place", "DRK"]).status == 0)
    expectCleanError(try vital.run(["donor", "complete"]), mentioning: "still ahead", "--at")
    #expect(try vital.run(["donor", "status", "--json"]).object?["appointment"] is [String: Any])
    let early = try vital.run(["donor", "complete", "--at", "2026-11-21T09:30", "--json"])
    #expect(early.status == 0, "\(early.stderr)")
    #expect(early.object?["status"] as? String == "completed")
  }

  @Test func deleteAsksSaysWhatItDeletedAndUndoBringsItBack() throws {
    let id = try record("2026-06-01T10:00", place: "Blutspende Nord")
    _ = try record("2026-08-01T10:00")
    // No terminal to ask on: nothing is deleted without --yes.
    expectCleanError(try vital.run(["donor", "delete", id]), mentioning: "--yes")
    #expect(try count() == 2)
    let deleted = try vital.run(["donor", "rm", String(id.prefix(6)), "--yes"])
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(deleted.stdout.contains("Blutspende Nord"))
    #expect(try count() == 1)

    let list = try #require(try vital.run(["undo", "--list", "--json"]).json as? [[String: Any]])
    #expect(list.first?["command"] as? String == "donor delete")
    let changes = try #require(list.first?["changes"] as? [[String: Any]])
    #expect(changes.first?["action"] as? String == "delete")
    #expect(changes.first?["id"] as? String == id)
    expectCleanError(try vital.run(["undo"]), mentioning: "--yes")
    let undone = try vital.run(["undo", "--yes"])
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(undone.stdout.contains("donor delete"))
    #expect(try show(id)["place"] as? String == "Blutspende Nord")
    // The undo is listed, and taking it back deletes again.
    let undoNumber = try #require(
      (try vital.run(["undo", "--list", "--json"]).json as? [[String: Any]])?.first?["number"] as? Int)
    #expect(try vital.run(["undo", String(undoNumber), "--yes"]).status == 0)
    #expect(try count() == 1)
    expectCleanError(try vital.run(["undo", "999", "--yes"]), mentioning: "no change 999")
  }

  @Test func aQuestionnaireResultIsListedShownAndDeleted() throws {
    try passQuestionnaire()
    let results = try #require(try vital.run(["donor", "questionnaire", "list", "--json"]).json as? [[String: Any]])
    let id = try #require(results.first?["id"] as? String)
    #expect(
      try vital.run(["donor", "questionnaire", "show", String(id.prefix(6)), "--json"]).object?["eligible"] as? Bool
        == true)
    #expect(try vital.run(["donor", "questionnaire", "delete", String(id.prefix(6)), "--yes"]).status == 0)
    // Booking goes by the result before it: there is none now.
    expectCleanError(
      try vital.run(["donor", "book", "--at", "2026-12-20T09:30", "--place", "DRK"]), mentioning: "questionnaire")
    #expect(try vital.run(["undo", "--yes"]).status == 0)
    #expect(try vital.run(["donor", "book", "--at", "2026-12-20T09:30", "--place", "DRK"]).status == 0)
  }

  @Test func undoWalksBackAndSaysWhenThereIsNothingLeft() throws {
    let fresh = try VitalHome()
    _ = try fresh.run(
      ["account", "register", "--email", "new@example.org", "--password-stdin"], stdin: "lilac harbour 1987 teaspoon\n")
    expectCleanError(try fresh.run(["undo", "--yes"]), mentioning: "nothing to undo")
    #expect(try fresh.run(["undo", "--list"]).stdout.contains("No changes"))
    _ = try record("2026-06-01T10:00")
    #expect(try vital.run(["undo", "--yes"]).status == 0)
    #expect(try count() == 0)
    #expect(try vital.run(["undo", "--yes"]).stdout.contains("profile set"))
    expectCleanError(try vital.run(["undo", "--yes"]), mentioning: "nothing to undo")
  }
}

/// Goals: the ids a list prints are ids the other commands take.
@Suite struct GoalEditTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T09:00:00Z"
    _ = try vital.run(
      ["account", "register", "--email", "goals@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    let imported = try vital.run(["goals", "import", HealthCLITests.fixtures + "/seeds/ihealth_Goals.json"])
    try #require(imported.status == 0, "\(imported.stderr)")
  }

  @Test func everyIdTheListPrintsWorksInShowEditAndDelete() throws {
    let list = try vital.run(["goals", "list"])
    let lines = list.stdout.split(separator: "\n").dropFirst()  // the header
    #expect(lines.count == 6)
    for line in lines {
      let id = String(try #require(line.split(separator: " ").first))
      let shown = try vital.run(["goals", "show", id, "--json"])
      #expect(shown.status == 0, "'\(id)' from the list: \(shown.stderr)")
    }
    expectCleanError(try vital.run(["goals", "show", "catalogue-10"]), mentioning: "give more characters")
  }

  @Test func aGoalIsEditedFieldByFieldAndDeletedWithUndo() throws {
    let edited = try vital.run(["goals", "edit", "catalogue-1002", "--target", "7500", "--title", "", "--json"])
    #expect(edited.status == 0, "\(edited.stderr)")
    let shown = try #require(try vital.run(["goals", "show", "catalogue-1002", "--json"]).object)
    #expect(shown["target"] as? Double == 7500)
    #expect(shown["title"] is NSNull)
    #expect(shown["type"] as? String == "steps")
    expectCleanError(try vital.run(["goals", "edit", "catalogue-1002", "--target", "0"]), mentioning: "--target")
    #expect(try vital.run(["goals", "rm", "catalogue-1002", "--yes"]).status == 0)
    expectCleanError(try vital.run(["goals", "show", "catalogue-1002"]), mentioning: "no goal")
    #expect(try vital.run(["undo", "--yes"]).status == 0)
    #expect(try vital.run(["goals", "show", "catalogue-1002", "--json"]).object?["target"] as? Double == 7500)
    #expect(try vital.run(["undo", "--yes"]).status == 0)
    #expect(
      try vital.run(["goals", "show", "catalogue-1002", "--json"]).object?["title"] as? String == "Hard walk steps")
  }
}
