import Foundation
import Testing

/// Edits, deletes and undos travel between two homes through a real `vital serve`.
extension SyncCLITests {
  func record(_ device: VitalHome, at: String, place: String) throws -> String {
    let run = try device.run(["donor", "record", "--at", at, "--place", place, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    return try #require(run.object?["id"] as? String)
  }

  func donation(_ device: VitalHome, _ id: String) throws -> [String: Any]? {
    let run = try device.run(["donor", "show", id, "--json"])
    return run.status == 0 ? run.object : nil
  }

  @Test func editsOfDifferentFieldsOnTwoDevicesBothSurvive() throws {
    let id = try record(a, at: "2026-06-01T10:00", place: "DRK Mitte")
    try sync(a)
    try sync(b)
    #expect(try a.run(["donor", "edit", String(id.prefix(6)), "--place", "Uniklinik"]).status == 0)
    #expect(try b.run(["donor", "edit", String(id.prefix(6)), "--notes", "arm bruised"]).status == 0)
    try sync(a)
    try sync(b)
    try sync(a)
    for device in [a, b] {
      let d = try #require(try donation(device, id))
      #expect(d["place"] as? String == "Uniklinik")
      #expect(d["notes"] as? String == "arm bruised")
    }
  }

  @Test func aDeleteWinsOverAnEditElsewhereAndAnUndoBringsItBackEverywhere() throws {
    let id = try record(a, at: "2026-06-01T10:00", place: "DRK Mitte")
    try sync(a)
    try sync(b)
    a.environment["VITAL_NOW"] = "2026-11-22T09:10:00Z"
    b.environment["VITAL_NOW"] = "2026-11-22T09:20:00Z"
    #expect(try a.run(["donor", "delete", id, "--yes"]).status == 0)
    // b edits later, not knowing of the delete: the delete still wins.
    #expect(try b.run(["donor", "edit", id, "--notes", "later edit"]).status == 0)
    try sync(a)
    try sync(b)
    try sync(a)
    for device in [a, b] { #expect(try donation(device, id) == nil) }
    // The undo on a brings the donation back on both, with the values it had when deleted.
    #expect(try a.run(["undo", "--yes"]).status == 0)
    try sync(a)
    try sync(b)
    for device in [a, b] {
      let d = try #require(try donation(device, id))
      #expect(d["place"] as? String == "DRK Mitte")
    }
    // b's own journal never holds a's change: its undo takes back its own edit only.
    let onB = try #require(try b.run(["undo", "--list", "--json"]).json as? [[String: Any]])
    #expect(onB.allSatisfy { $0["command"] as? String != "donor delete" })
  }
}

extension SyncCLITests {
  /// Two devices note the same day offline: one the temperature, the other the mucus, both the
  /// flow. The day is one record (its id is the day) and every field survives (the later flow
  /// wins); the period both started from that flow is one period.
  @Test func cycleNotesOfOneDayMergeFieldByField() throws {
    #expect(
      try a.run([
        "cycle", "note", "--date", "2026-11-02", "--temperature", "36.45", "--exclude-temperature", "--flow", "heavy",
      ]).status == 0)
    #expect(try b.run(["cycle", "note", "--date", "2026-11-02", "--mucus", "creamy", "--flow", "light"]).status == 0)
    #expect(try b.run(["cycle", "pause", "--from", "2026-11-10", "--reason", "other"]).status == 0)
    try sync(a)
    try sync(b)
    try sync(a)
    for device in [a, b] {
      let day = try #require(try device.run(["cycle", "day", "2026-11-02", "--json"]).object)
      #expect(day["temperature"] as? Double == 36.45)
      #expect(day["temperature_excluded"] as? Bool == true, "b's later note of other fields leaves it out still")
      #expect(day["mucus"] as? String == "creamy")
      #expect(day["flow"] as? String == "light")
      #expect((try device.run(["cycle", "list", "--json"]).json as? [Any])?.count == 1)
      #expect((try device.run(["cycle", "pauses", "--json"]).json as? [Any])?.count == 1)
    }
  }
}
