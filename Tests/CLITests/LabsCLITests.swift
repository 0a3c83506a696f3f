import Foundation
import Testing

/// `vital labs` through the real binary: results from a doctor's letter in the units it uses,
/// kept in one unit, flagged against the laboratory's range or the catalogue's, drawn over the
/// years; and every kind of bad input refused with one line and nothing written.
@Suite struct LabsCLITests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-27T10:00:00Z"
    try ExportImportTests.register(vital, "labs@example.org")
  }

  func ok(_ arguments: [String]) throws -> Run {
    let run = try vital.run(arguments)
    #expect(run.status == 0, "\(arguments): \(run.stderr)")
    return run
  }

  func listed() throws -> [[String: Any]] {
    try #require(try ok(["labs", "list", "--json"]).json as? [[String: Any]])
  }

  @Test func aLettersResultsAreKeptInOneUnitAndFlagged() throws {
    let glucose = try #require(
      try ok(["labs", "add", "glucose", "99", "mg/dL", "--at", "2026-11-20", "--lab", "City Lab", "--json"]).object)
    // 99 mg/dL / 18.016 = 5.495 mmol/L, kept with what the letter said.
    #expect(abs((glucose["value"] as? Double ?? 0) - 5.4953) < 0.001, "\(glucose)")
    #expect((glucose["recorded"] as? [String: Any])?["unit"] as? String == "mg/dL")
    #expect(glucose["unit"] as? String == "mmol/L" && glucose["loinc"] as? String != nil)
    #expect(glucose["at"] as? String == "2026-11-20T00:00:00+01:00", "a date from a letter is that day")
    // The laboratory's range wins over the catalogue's, in the unit the result was written in.
    let ferritin = try #require(
      try ok(["labs", "add", "ferritin", "12", "µg/L", "--at", "2026-11-20", "--range", "20-250", "--json"]).object)
    #expect(ferritin["flag"] as? String == "L")
    let range = try #require(ferritin["range"] as? [String: Any])
    #expect(range["low"] as? Double == 20 && range["source"] as? String == "laboratory", "\(range)")
    let bp = try #require(try ok(["labs", "add", "bp", "145/85", "--json"]).object)
    #expect(bp["value"] as? Double == 145 && bp["second"] as? Double == 85 && bp["flag"] as? String == "H")
    let text = try ok(["labs", "list"]).stdout
    #expect(text.contains("Ferritin") && text.contains("12 ng/mL") && text.contains("20–250"), "\(text)")
    #expect(text.contains("145/85 mmHg") && text.contains("2026-11-20"), "\(text)")
    // Show says what the letter said; edit changes one thing and keeps the rest.
    let id = try #require(glucose["id"] as? String)
    let shown = try ok(["labs", "show", String(id.prefix(8))]).stdout
    #expect(shown.contains("written    99 mg/dL") && shown.contains("City Lab"), "\(shown)")
    let edited = try #require(try ok(["labs", "edit", String(id.prefix(8)), "--value", "90", "--json"]).object)
    #expect(abs((edited["value"] as? Double ?? 0) - 4.9958) < 0.001 && edited["lab"] as? String == "City Lab")
    #expect(try ok(["labs", "delete", String(id.prefix(8)), "--yes"]).status == 0)
    #expect(try listed().count == 2)
    #expect(try ok(["undo", "--yes"]).status == 0)
    #expect(try listed().count == 3, "undo brings a deleted result back")
  }

  @Test func aTrendDrawsEveryValueAgainstItsRange() throws {
    // Women's range (12–15 g/dL); without a sex in the profile, the span of both sexes'.
    try _ = ok(["profile", "set", "--sex", "female"])
    for (day, value) in [("2024-01-10", "11.8"), ("2025-01-10", "13.2"), ("2026-01-10", "16.1")] {
      try _ = ok(["labs", "add", "hb", value, "g/dL", "--at", day])
    }
    try _ = ok(["labs", "add", "hb", "80", "mmol/L", "--at", "2026-06-10", "--force"])
    let trend = try #require(try ok(["labs", "trend", "haemoglobin", "--json"]).object)
    let results = try #require(trend["results"] as? [[String: Any]])
    #expect(results.map { $0["flag"] as? String } == ["L", "N", "H", "H"], "\(results)")
    #expect(results.first?["at"] as? String == "2024-01-10T00:00:00+01:00", "oldest first")
    let text = try ok(["labs", "trend", "hb"]).stdout
    #expect(text.contains("Haemoglobin (g/dL)") && text.contains("●") && text.contains("["), "\(text)")
    #expect(text.split(separator: "\n").filter { $0.contains(" L  |") }.count == 1, "\(text)")
    #expect(
      try ok(["labs", "trend", "hb", "--years", "1", "--json"]).object.map { ($0["results"] as? [Any])?.count } == 2)
    // A blood pressure's two numbers each against their range, both on one scale.
    try _ = ok(["labs", "add", "bp", "145/85", "--at", "2026-11-01"])
    try _ = ok(["labs", "add", "bp", "118/58", "--at", "2026-11-02"])
    let pressure = try ok(["labs", "trend", "bp"]).stdout
    #expect(pressure.contains("reference 90–120/60–80"), "\(pressure)")
    #expect(pressure.split(separator: "\n").filter { $0.filter { $0 == "[" }.count == 2 }.count == 2, "\(pressure)")
    let tests = try #require(try ok(["labs", "tests", "--json"]).json as? [[String: Any]])
    #expect(tests.count >= 46 && tests.contains { $0["id"] as? String == "ferritin" })
  }

  @Test(arguments: [
    (["labs", "add", "ferriten", "35", "ng/mL"], "did you mean 'ferritin'"),
    (["labs", "add", "glucose", "5.2"], "comes in several units"),
    (["labs", "add", "glucose", "5.2", "furlongs"], "'furlongs' is not a unit of glucose"),
    (["labs", "add", "glucose", "5.2", "kg"], "'kg' is not a unit of glucose"),
    (["labs", "add", "ferritin", "nan", "ng/mL"], "is not a value"),
    (["labs", "add", "ferritin", "1e400", "ng/mL"], "is not a value"),
    (["labs", "add", "ferritin", "35000", "ng/mL"], "--force"),
    (["labs", "add", "bp", "128"], "two numbers"),
    (["labs", "add", "bp", "82/128"], "the higher number first"),
    (["labs", "add", "platelets", "1,234", "10*9/L"], "could be read two ways"),
    (["labs", "add", "ferritin", "35", "ng/mL", "--at", "2027-05-01"], "2027-05-01 is still to come"),
    (["labs", "add", "ferritin", "35", "ng/mL", "--range", "150-15"], "is not a range"),
    (["labs", "add", "ferritin", "35", "ng/mL", "--at", "0026-11-20"], "year"),
    (["labs", "show", "nothing"], "no lab result"),
    (["labs", "trend", "nothing"], "no test 'nothing'"),
  ])
  func badInputIsOneLineAndNothingIsWritten(arguments: [String], message: String) throws {
    expectCleanError(try vital.run(arguments), mentioning: message)
    #expect(try listed().isEmpty)
  }
}
