import Foundation
import Testing

/// Totals across devices through the real binary: a generated export where an iPhone, an Apple
/// Watch and an app measured the same minutes, whose expected totals the generator works out
/// second by second.
@Suite struct HealthTotalsCLITests {
  let vital: VitalHome
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let watch = "Anna’s Apple Watch"
  static let phone = "Anna’s iPhone"

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T20:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "walker@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
  }

  /// Writes an export of `days` days from `start` and returns the generator's expected totals.
  func generate(_ name: String, start: String, days: Int, sources: String = "watch,phone,app") throws -> (
    file: String, expected: [String: Any]
  ) {
    let file = vital.root + "/\(name).xml"
    let expected = vital.root + "/\(name).json"
    try Self.generate(file, ["--sources", sources, "--start", start, "--days", String(days), "--expected", expected])
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: expected)))
    return (file, try #require(json as? [String: Any]))
  }

  /// Runs `scripts/gen-health-export FILE ARGS` (Europe/Berlin, a fixed seed).
  static func generate(_ file: String, _ arguments: [String]) throws {
    let gen = Process()
    gen.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    gen.arguments =
      [root.appendingPathComponent("scripts/gen-health-export").path, file]
      + arguments + ["--zone", "Europe/Berlin", "--seed", "11"]
    try gen.run()
    gen.waitUntilExit()
    try #require(gen.terminationStatus == 0, "the generator failed")
  }

  func summary(_ day: String) throws -> [String: Any] {
    let run = try vital.run(["health", "summary", "--date", day, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    return try #require(run.object)
  }

  static func close(_ a: Any?, _ b: Any?) -> Bool {
    guard let x = (a as? NSNumber)?.doubleValue, let y = (b as? NSNumber)?.doubleValue else { return false }
    return abs(x - y) <= 0.01
  }

  @Test func theImportsTotalsAreTheGeneratorsAcrossBothDSTChanges() throws {
    let spring = try generate("spring", start: "2026-03-28", days: 3)
    let autumn = try generate("autumn", start: "2026-10-24", days: 3)
    for file in [spring.file, autumn.file] {
      let run = try vital.run(["health", "import", file, "--json"])
      try #require(run.status == 0, "\(run.stderr)")
    }
    var checked = 0
    for expected in [spring.expected, autumn.expected] {
      let days = try #require(expected["days"] as? [String: [String: Double]])
      let sources = try #require(expected["sources"] as? [String: [String: [String: Double]]])
      for (day, totals) in days {
        let got = try summary(day)
        #expect(Self.close(got["steps"], totals["steps"]), "\(day): steps \(got["steps"] ?? "-") ≠ \(totals["steps"]!)")
        #expect(
          Self.close(got["walking_running_distance_m"], totals["distance_m"]),
          "\(day): distance \(got["walking_running_distance_m"] ?? "-") ≠ \(totals["distance_m"]!)")
        let counted = try #require((got["sources"] as? [String: Any])?["steps"] as? [[String: Any]])
        for (name, value) in sources[day]?["steps"] ?? [:] {
          #expect(Self.close(counted.first { $0["name"] as? String == name }?["counted"], value), "\(day) \(name)")
        }
        checked += 1
      }
    }
    #expect(checked == 6)
    // Every source was seen, each as what its records' device says.
    let listed = try #require(try vital.run(["health", "sources", "--json"]).json as? [[String: Any]])
    #expect(listed.map { $0["name"] as? String } == [Self.watch, Self.phone, "Pedometer++"])
    #expect(listed.map { $0["kind"] as? String } == ["watch", "phone", "other"])
    #expect(listed.allSatisfy { ($0["samples"] as? Int ?? 0) > 0 && $0["first"] as? String == "2026-03-28" })
    // Importing again changes nothing.
    let again = try vital.run(["health", "import", spring.file, "--json"])
    #expect(again.object?["inserted"] as? Int == 0)
    #expect(
      Self.close(
        try summary("2026-03-29")["steps"],
        (spring.expected["days"] as? [String: [String: Double]])?["2026-03-29"]?["steps"]))
  }

  @Test func preferringTheAppCountsItFirst() throws {
    let export = try generate("two", start: "2026-11-10", days: 1, sources: "watch,app")
    #expect(try vital.run(["health", "import", export.file]).status == 0)
    let before = try #require(try summary("2026-11-10")["steps"] as? Double)
    let ranked = try vital.run(["health", "sources", "--prefer", "Pedometer++", "--json"])
    #expect(ranked.status == 0, "\(ranked.stderr)")
    let list = try #require(ranked.json as? [[String: Any]])
    #expect(list.first?["name"] as? String == "Pedometer++")
    #expect(list.first?["preferred"] as? Int == 1)
    let after = try #require(try summary("2026-11-10")["steps"] as? Double)
    #expect(after != before)
    let text = try vital.run(["health", "sources"]).stdout
    #expect(text.contains("Pedometer++  (preferred)"))
    // Bad names change nothing and say what there is.
    let bad = try vital.run(["health", "sources", "--prefer", "Nokia 3310"])
    expectCleanError(bad, mentioning: "no source named", "Pedometer++")
    let both = try vital.run(["health", "sources", "--prefer", "Pedometer++", "--reset"])
    #expect(both.status == 64 && both.stderr.contains("--reset"), "a usage error")
    #expect(try summary("2026-11-10")["steps"] as? Double == after)
    #expect(try vital.run(["health", "sources", "--reset"]).status == 0)
    #expect(try summary("2026-11-10")["steps"] as? Double == before)
  }

  @Test func trendRowsBarsAndTheirGoal() throws {
    for (day, value) in [("2026-11-20", "9000"), ("2026-11-21", "4000"), ("2026-11-22", "12000")] {
      #expect(
        try vital.run(["health", "add", "--type", "steps", "--value", value, "--at", "\(day) 12:00"]).status == 0)
    }
    #expect(try vital.run(["goals", "add", "--type", "steps", "--target", "8000"]).status == 0)
    let rows = try #require(
      try vital.run(["health", "trend", "--type", "steps", "--days", "3", "--json"]).json as? [[String: Any]])
    #expect(rows.map { $0["period"] as? String } == ["2026-11-20", "2026-11-21", "2026-11-22"])
    #expect(rows.map { $0["total"] as? Int } == [9000, 4000, 12000])
    #expect(rows.map { $0["met"] as? Bool } == [true, false, true])
    let weeks = try #require(
      try vital.run(["health", "trend", "--type", "steps", "--weeks", "1", "--json"]).json as? [[String: Any]])
    #expect(weeks.first?["period"] as? String == "2026-W47")
    #expect(weeks.first?["total"] as? Int == 25000)
    #expect(weeks.first?["days_met"] as? Int == 2)
    // As wide as COLUMNS says, no colour with NO_COLOR; the longest bar fills its room.
    vital.environment["COLUMNS"] = "60"
    let text = try vital.run(["health", "trend", "--type", "steps", "--days", "3"]).stdout
    let lines = text.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines.prefix(3).allSatisfy { $0.count <= 60 }, "\(text)")
    #expect(lines[2].hasSuffix(String(repeating: "█", count: 10)) && lines[2].contains("✓"))
    #expect(!text.contains("\u{1B}["))
    #expect(lines[3].contains("2 of 3"))
    for (args, word) in [
      (["--type", "steps", "--days", "3", "--weeks", "2"], "one of"), (["--type", "floors"], "floors"),
      (["--type", "steps", "--months", "0"], "--months"), (["--type", "steps", "--goal", "-5"], "--goal"),
    ] {
      let bad = try vital.run(["health", "trend"] + args)
      #expect(bad.status == 64 && bad.stderr.contains(word), "a usage error: \(bad.stderr)")
    }
  }
}
