import Foundation
import Testing

/// `vital health sleep` through the real binary, against nights the generator works out second
/// by second: a Watch's stages, an iPhone's "in bed" and older unstaged "asleep", an app's
/// "asleep" under the Watch's, a night across the change to summer time, a bedtime after
/// midnight, a nap.
@Suite struct SleepCLITests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-04-02T10:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "sleeper@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
  }

  func generate(_ sources: String) throws -> [String: [String: Any]] {
    let file = vital.root + "/sleep-\(sources).xml"
    let expected = vital.root + "/sleep-\(sources).json"
    try HealthTotalsCLITests.generate(
      file, ["--sources", sources, "--start", "2026-03-27", "--days", "6", "--sleep", "--expected", expected])
    let run = try vital.run(["health", "import", file])
    try #require(run.status == 0, "\(run.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: expected)))
    return try #require((json as? [String: Any])?["nights"] as? [String: [String: Any]])
  }

  func nights() throws -> [[String: Any]] {
    let run = try vital.run(["health", "sleep", "--days", "10", "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    return try #require(run.json as? [[String: Any]])
  }

  @Test(arguments: ["watch,phone,app", "phone"])
  func eachNightIsTheGeneratorsCountedOnce(sources: String) throws {
    let expected = try generate(sources)
    let got = try nights()
    #expect(got.count == 10)
    let fields = [
      "bedtime", "wake", "in_bed_s", "asleep_s", "core_s", "deep_s", "rem_s", "asleep_unstaged_s", "awake_s",
      "awake_periods",
    ]
    for night in got {
      let day = try #require(night["date"] as? String)
      guard let want = expected[day] else {
        #expect(night["in_bed_s"] is NSNull, "\(day) had no sleep: no data, not zero")
        continue
      }
      for field in fields {
        #expect(
          "\(night[field] ?? "missing")" == "\(want[field] ?? "missing")",
          "\(day) \(field): \(night[field] ?? "missing") ≠ \(want[field] ?? "missing")")
      }
      let naps = (night["naps"] as? [[String: Any]])?.map { "\($0["in_bed_s"]!)/\($0["asleep_s"]!)" }
      let wantNaps = (want["naps"] as? [[String: Any]])?.map { "\($0["in_bed_s"]!)/\($0["asleep_s"]!)" }
      #expect(naps == wantNaps, "\(day) naps")
    }
    #expect(expected.count >= 5, "the generator should have written five nights")
    // Importing again changes nothing.
    let again = try vital.run(["health", "import", vital.root + "/sleep-\(sources).xml", "--json"])
    #expect(again.object?["inserted"] as? Int == 0)
    // The samples behind a night are listed with their states.
    let day = try #require(expected.keys.sorted().first)
    let listed = try vital.run(["health", "list", "--date", day, "--type", "sleep"])
    #expect(listed.status == 0 && listed.stdout.contains("sleep"), "\(listed.stderr)")
    #expect(!listed.stdout.contains("invalid") && !listed.stdout.contains("unknown"), "\(listed.stdout)")
    #expect(listed.stdout.contains("in bed") || listed.stdout.contains("asleep"), "\(listed.stdout)")
    let states = try #require(
      try vital.run(["health", "list", "--date", day, "--type", "sleep", "--json"]).json as? [[String: Any]])
    let known: Set = ["in_bed", "asleep", "core", "deep", "rem", "awake"]
    #expect(
      !states.isEmpty && states.allSatisfy { known.contains($0["state"] as? String ?? "") }, "\(states.first ?? [:])")
    // The day's night began the evening before: its first sample is listed, as health sleep counts it.
    let night = try #require(got.first { $0["date"] as? String == day })
    let starts = states.compactMap { $0["start"] as? String }.sorted()
    #expect(starts.first == night["bedtime"] as? String, "\(starts.first ?? "none") ≠ bedtime \(night["bedtime"]!)")
    #expect(starts.first.map { !$0.hasPrefix(day) } == true, "a bedtime before midnight: \(starts.first ?? "none")")
  }

  @Test func noSleepIsNoDataAndTheTextSaysSo() throws {
    let run = try vital.run(["health", "sleep", "--days", "3"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("No sleep yet: 'vital health import' brings it"), "\(run.stdout)")
    let json = try vital.run(["health", "sleep", "--days", "3", "--json"])
    let rows = try #require(json.json as? [[String: Any]])
    #expect(rows.count == 3 && rows.allSatisfy { $0["asleep_s"] is NSNull })
    let bad = try vital.run(["health", "sleep", "--days", "0"])
    #expect(bad.status == 64 && bad.stderr.contains("--days must be from 1 to 3660"))
  }
}
