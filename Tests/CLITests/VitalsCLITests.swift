import Foundation
import Testing

/// `vital health vitals` through the real binary, against each day's figures the generator
/// works out itself: heart rate, resting heart rate, HRV, oxygen as a fraction, respiratory rate,
/// weight in kg and lb, blood pressure correlations (one of them missing its second half), over
/// the day the clocks go back.
@Suite struct VitalsCLITests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-10-28T20:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "pulse@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
  }

  static func close(_ a: Any?, _ b: Any?) -> Bool {
    guard let x = (a as? NSNumber)?.doubleValue, let y = (b as? NSNumber)?.doubleValue else { return false }
    return abs(x - y) <= 0.051
  }

  @Test func eachDaysFiguresAreTheGeneratorsInOneUnit() throws {
    let file = vital.root + "/vitals.xml"
    let expectedFile = vital.root + "/vitals.json"
    try HealthTotalsCLITests.generate(
      file,
      ["--sources", "watch,phone", "--start", "2026-10-24", "--days", "4", "--vitals", "--expected", expectedFile])
    let imported = try vital.run(["health", "import", file, "--json"])
    try #require(imported.status == 0, "\(imported.stderr)")
    #expect(imported.object?["half_readings"] as? Int == 1, "the correlation without its diastolic half")
    let text = try vital.run(["health", "import", file])
    #expect(text.stdout.contains("1 blood pressure reading left out: systolic or diastolic missing"), "\(text.stdout)")
    let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: expectedFile)))
    let expected = try #require((document as? [String: Any])?["vitals"] as? [String: [String: [String: Any]]])
    #expect(expected.count == 7, "every kind was generated")
    var compared = 0
    for (kind, days) in expected {
      let run = try vital.run(["health", "vitals", "--type", kind, "--days", "6", "--json"])
      try #require(run.status == 0, "\(run.stderr)")
      let rows = try #require(run.json as? [[String: Any]])
      for row in rows {
        let day = try #require(row["period"] as? String)
        guard let want = days[day] else {
          #expect(row["count"] as? Int == 0 && row["avg"] is NSNull, "\(kind) \(day): no data, not zero")
          continue
        }
        #expect(row["count"] as? Int == want["count"] as? Int, "\(kind) \(day) count")
        for field in ["min", "avg", "max"] {
          #expect(
            Self.close(row[field], want[field]), "\(kind) \(day) \(field): \(row[field] ?? "-") ≠ \(want[field] ?? "-")"
          )
        }
        if let diastolic = want["diastolic"] as? [String: Any] {
          let got = try #require(row["diastolic"] as? [String: Any], "\(kind) \(day) diastolic")
          #expect(Self.close(got["avg"], diastolic["avg"]) && got["count"] as? Int == diastolic["count"] as? Int)
        }
        compared += 1
      }
    }
    #expect(compared == 7 * 4)

    let overview = try vital.run(["health", "vitals", "--json"])
    let kinds = (overview.json as? [[String: Any]])?.compactMap { $0["type"] as? String }
    #expect(Set(kinds ?? []) == Set(expected.keys), "\(overview.stdout)")
    // A blood pressure's lower number has its own 30-day range; the latest sits within the range.
    for entry in overview.json as? [[String: Any]] ?? [] {
      let latest = (entry["latest"] as? [String: Any])?["value"] as? Double ?? -1
      let range = entry["last_30_days"] as? [String: Any]
      if let low = range?["min"] as? Double, let high = range?["max"] as? Double {
        #expect((low...high).contains(latest), "\(entry)")
      }
      let lower = entry["last_30_days_diastolic"]
      #expect((entry["type"] as? String == "blood-pressure") == (lower is [String: Any]), "\(entry)")
    }
    let bp = try vital.run(["health", "vitals", "--type", "bp"])
    #expect(bp.stdout.contains("mmHg") && bp.stdout.contains("/"), "\(bp.stdout)")
    #expect(bp.stdout.contains("left diastolic, right systolic"), "the drawing has a key: \(bp.stdout)")

    // One reading of each kind, listed and shown as the kind reads it, not as invalid.
    for (kind, unit) in [("bp", " mmHg"), ("weight", " kg"), ("spo2", " %")] {
      let day = try #require(expected[kind == "bp" ? "blood-pressure" : kind]?.keys.sorted().first)
      let listed = try vital.run(["health", "list", "--date", day, "--type", kind, "--json"])
      let first = try #require((listed.json as? [[String: Any]])?.first, "\(kind) \(day): \(listed.stderr)")
      let id = try #require(first["id"] as? String)
      let shown = try vital.run(["health", "show", String(id.prefix(17))])
      #expect(shown.status == 0 && shown.stdout.contains(unit), "\(kind): \(shown.stdout)")
      #expect(!shown.stdout.contains("invalid"), "\(kind): \(shown.stdout)")
      if kind == "bp" {
        let text = try #require(first["text"] as? String, "a reading's two numbers")
        #expect(shown.stdout.contains(text + " mmHg"), "\(shown.stdout)")
        let (systolic, diastolic) = (first["systolic"] as? Double, first["diastolic"] as? Double)
        #expect(systolic != nil && diastolic != nil && text.hasPrefix("\(Int(systolic ?? 0))/"), "\(first)")
      } else {
        // JSON gives the value as the kind reads it (kg, %), the file's own beside it.
        let value = try #require(first["value"] as? Double, "\(first)")
        #expect(first["unit"] as? String == unit.trimmingCharacters(in: .whitespaces), "\(first)")
        let recorded = try #require(first["recorded"] as? [String: Any])
        let raw = try #require(recorded["value"] as? Double, "\(recorded)")
        if recorded["unit"] as? String == "lb" { #expect(abs(value - raw * 0.45359237) < 0.006, "\(first)") }
        if kind == "spo2" { #expect(value > 1 && (recorded["value"] as? Double ?? 2) <= 1, "a fraction read as %") }
      }
    }
  }

  @Test func refusalsAndNoDataSayWhatToDo() throws {
    let none = try vital.run(["health", "vitals"])
    #expect(none.status == 0 && none.stdout.contains("No vitals yet"))
    let unknown = try vital.run(["health", "vitals", "--type", "cholesterol"])
    #expect(unknown.status == 64, "\(unknown.stderr)")
    let alone = try vital.run(["health", "vitals", "--days", "3"])
    #expect(alone.status == 64 && alone.stderr.contains("go with --type"))
  }

  /// Trends read kept day figures (`health_vital_day`): what a home that kept them shows after
  /// an import onto kept days, an undo, and a move to another zone is what a home that never
  /// kept any shows for the same samples, to the last digit.
  @Test func keptDaysFollowEveryChangeOfTheirSamples() throws {
    let first = vital.root + "/first.xml"
    let second = vital.root + "/second.xml"
    try HealthTotalsCLITests.generate(
      first, ["--sources", "watch,phone", "--start", "2026-10-24", "--days", "4", "--vitals"])
    // The same generator a day later: other readings on days the first file has too.
    try HealthTotalsCLITests.generate(
      second, ["--sources", "watch", "--start", "2026-10-25", "--days", "2", "--vitals"])
    func fresh(_ files: [String], zone: String = "Europe/Berlin") throws -> VitalHome {
      let home = try VitalHome()
      home.environment["VITAL_NOW"] = vital.environment["VITAL_NOW"]
      home.environment["TZ"] = zone
      let run = try home.run(
        ["account", "register", "--email", "fresh@example.org", "--password-stdin"],
        stdin: "lilac harbour 1987 teaspoon\n")
      try #require(run.status == 0, "\(run.stderr)")
      for file in files { try #require(try home.run(["health", "import", file]).status == 0) }
      return home
    }
    let kinds = ["heart-rate", "resting-heart-rate", "hrv", "weight", "bp", "oxygen", "respiratory-rate"]
    func figures(_ home: VitalHome) throws -> [String] {
      try kinds.map { kind in
        let run = try home.run(["health", "vitals", "--type", kind, "--days", "8", "--json"])
        try #require(run.status == 0, "\(run.stderr)")
        return run.stdout
      }
    }
    try #require(try vital.run(["health", "import", first]).status == 0)
    let before = try figures(vital)
    try #require(try vital.run(["health", "import", second]).status == 0)
    let both = try figures(vital)
    #expect(both != before, "the second file's readings count on days already kept")
    #expect(both == (try figures(try fresh([first, second]))))
    try #require(try vital.run(["undo", "--yes"]).status == 0)
    #expect(try figures(vital) == before, "undone, the days are as they were")
    vital.environment["TZ"] = "America/New_York"
    let there = try figures(vital)
    #expect(there != before, "the readings fall on other days there")
    #expect(there == (try figures(try fresh([first], zone: "America/New_York"))))
    vital.environment["TZ"] = "Europe/Berlin"
    #expect(try figures(vital) == before, "and back home, on the days they fell on before")
  }

  /// Days without data after the last import say where the data is, and the command they name
  /// reaches it: not "import it", which the person has done.
  @Test func anEmptyStretchNamesTheLastDayWithData() throws {
    let file = vital.root + "/old.xml"
    try HealthTotalsCLITests.generate(
      file, ["--sources", "watch,phone", "--start", "2026-10-01", "--days", "3", "--vitals", "--sleep"])
    try #require(try vital.run(["health", "import", file]).status == 0)
    let weight = try vital.run(["health", "vitals", "--type", "weight", "--days", "2"])
    #expect(weight.status == 0)
    let hint = try #require(
      weight.stdout.firstMatch(
        of: /No weight in the last 2 days; the last reading was on (\S+): 'vital (.+)' reaches it/),
      "\(weight.stdout)")
    let reaches = try vital.run(hint.2.split(separator: " ").map(String.init))
    #expect(reaches.stdout.contains(String(hint.1)) && reaches.stdout.contains("kg"), "\(reaches.stdout)")
    let sleep = try vital.run(["health", "sleep", "--days", "3"])
    let night = try #require(
      sleep.stdout.firstMatch(
        of: /No sleep in the last 3 nights; the last recorded began on (\S+): 'vital (.+)' reaches it/),
      "\(sleep.stdout)")
    let shown = try vital.run(night.2.split(separator: " ").map(String.init))
    #expect(shown.stdout.contains("asleep") && !shown.stdout.contains("No sleep"), "\(shown.stdout)")
    let weeks = try vital.run(["health", "vitals", "--type", "hrv", "--weeks", "2"])
    #expect(weeks.stdout.contains("in the last 2 weeks; the last reading was on"), "\(weeks.stdout)")
  }
}
