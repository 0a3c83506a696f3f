import Foundation
import Testing

/// `vital health workouts` and `vital health workout ID --gpx` through the real binary, against
/// workouts the generator writes with their GPX routes: a run the Watch and the iPhone recorded
/// at once, a run across midnight, a walk across the change to summer time, a workout without a
/// route, a route the export names but lacks. The routes go back out as GPX that gpxpy reads.
@Suite struct WorkoutsCLITests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-04-02T10:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "runner@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
  }

  /// The generated export (in a folder of its own, routes beside it) and what it should list.
  func generate(_ name: String, _ extra: [String] = []) throws -> (file: String, workouts: [[String: Any]]) {
    let folder = vital.root + "/\(name)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let file = folder + (extra.contains("--zip") ? "/export.zip" : "/export.xml")
    let expected = folder + "/expected.json"
    try HealthTotalsCLITests.generate(
      file,
      [
        "--sources", "watch,phone", "--start", "2026-03-27", "--days", "4", "--vitals", "--workouts", "--expected",
        expected,
      ]
        + extra)
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: expected)))
    return (file, try #require((json as? [String: Any])?["workouts"] as? [[String: Any]]))
  }

  func listed() throws -> [[String: Any]] {
    let run = try vital.run(["health", "workouts", "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    return try #require(run.json as? [[String: Any]])
  }

  static func instant(_ text: Any?) -> Date? {
    guard let text = text as? String else { return nil }
    return ISO8601DateFormatter().date(
      from: text.replacingOccurrences(of: #"\.\d+"#, with: "", options: .regularExpression))
  }

  /// Numbers as the JSON gives them, to a tenth; text and lists as they are.
  static func same(_ got: Any?, _ want: Any?, tolerance: Double = 0.051) -> Bool {
    switch (got, want) {
    case (is NSNull, is NSNull), (nil, is NSNull), (is NSNull, nil): return true
    case (let g as NSNumber, let w as NSNumber): return abs(g.doubleValue - w.doubleValue) <= tolerance
    default: return "\(got ?? "nil")" == "\(want ?? "nil")"
    }
  }

  @Test func eachWorkoutIsTheGeneratorsCountedOnce() throws {
    let (file, expected) = try generate("folder")
    let run = try vital.run(["health", "import", file, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    // The run whose route file is missing: named once, its workout kept.
    #expect(run.stderrLines.count == 1, "\(run.stderr)")
    #expect(
      run.stderr.hasPrefix("warning: route_2026-03-29_")
        && run.stderr.contains("the export names this route file but does not hold it (import export.zip")
        && run.stderr.contains("; its workout is kept"),
      "\(run.stderr)")
    #expect(run.object?["routes"] as? Int == 3)
    let got = try listed()
    try #require(got.count == expected.count, "\(got.count) workouts listed, \(expected.count) expected")
    for (g, w) in zip(got, expected) {
      #expect(Self.instant(g["start"]) == Self.instant(w["start"]), "\(g["start"] ?? "") ≠ \(w["start"] ?? "")")
      for field in ["type", "duration_s", "distance_m", "energy_kcal", "pace_s_per_km", "route_points", "source"] {
        #expect(Self.same(g[field], w[field]), "\(w["start"]!) \(field): \(g[field] ?? "nil") ≠ \(w[field] ?? "nil")")
      }
      // Rounded to a tenth on both sides of a sum of differences: within two tenths.
      #expect(Self.same(g["ascent_m"], w["ascent_m"], tolerance: 0.11), "\(w["start"]!) ascent")
      #expect(Self.same(g["heart_rate_bpm"], w["heart_rate_bpm"], tolerance: 0.051), "\(w["start"]!) heart rate")
      #expect(
        (g["also_recorded_by"] as? [String]) == (w["also_recorded_by"] as? [String]), "\(w["start"]!) counted once")
    }
    // Importing again adds nothing: no workout, and no route twice.
    let again = try vital.run(["health", "import", file, "--json"])
    #expect(again.object?["inserted"] as? Int == 0)
    #expect(try listed().map { $0["route_points"] as? Int } == got.map { $0["route_points"] as? Int })
    // --type takes the activity as people say it.
    let walks = try vital.run(["health", "workouts", "--type", "walking", "--json"])
    #expect((walks.json as? [[String: Any]])?.count == 1)
    let text = try vital.run(["health", "workouts"])
    #expect(text.stdout.contains("running") && text.stdout.contains("(also Anna’s iPhone)"), "\(text.stdout)")
  }

  /// The folder export.zip unpacks to, as the missing-route warning advises importing; and a
  /// walk the clocks changed during, its times with their offsets so they agree with its length.
  @Test func theUnpackedFolderImportsAndAWalkOverTheClockChangeShowsItsOffsets() throws {
    let (file, _) = try generate("unpacked")
    let folder = (file as NSString).deletingLastPathComponent
    let run = try vital.run(["health", "import", folder, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    #expect(run.object?["routes"] as? Int == 3 && run.stderrLines.count == 1, "\(run.stdout) \(run.stderr)")
    let empty = vital.root + "/empty-folder"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    expectCleanError(try vital.run(["health", "import", empty]), mentioning: "a folder without export.xml")
    let walk = try #require(
      try listed().first { ($0["start"] as? String)?.suffix(6) != ($0["end"] as? String)?.suffix(6) },
      "the generator's walk across the change to summer time")
    let shown = try vital.run(["health", "workout", try #require(walk["id"] as? String)])
    let (start, end) = (try #require(walk["start"] as? String), try #require(walk["end"] as? String))
    #expect(
      shown.stdout.contains(" \(start.suffix(6)) to ") && shown.stdout.contains(" \(end.suffix(6))"),
      "\(start) to \(end): \(shown.stdout)")
  }

  @Test func aRouteGoesBackOutAsGPXThatGpxpyReads() throws {
    let (file, expected) = try generate("gpx")
    try #require(try vital.run(["health", "import", file]).status == 0)
    let got = try listed()
    var checked = 0
    for (g, w) in zip(got, expected) {
      let id = try #require(g["id"] as? String)
      let points = try #require(w["points"] as? [[Any]])
      let out = vital.root + "/\(checked)-\(points.count).gpx"
      guard !points.isEmpty else {
        let none = try vital.run(["health", "workout", String(id.prefix(16)), "--gpx", out])
        expectCleanError(none, mentioning: "has no route")
        #expect(!FileManager.default.fileExists(atPath: out), "no file for a route there is not")
        continue
      }
      let run = try vital.run(["health", "workout", id, "--gpx", out])
      try #require(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains("wrote the route's \(points.count) points to"))
      let want = vital.root + "/\(checked).json"
      try JSONSerialization.data(withJSONObject: points).write(to: URL(fileURLWithPath: want))
      let report = try JSONSerialization.jsonObject(with: runChecker("check-gpx", [out, want])) as? [String: Any]
      #expect(report?["points"] as? Int == points.count)
      checked += 1
    }
    #expect(checked == 3, "three workouts have routes")
    // Against the Health app's own file, read by gpxpy as well; and to standard output.
    let walk = try #require(got.first { ($0["type"] as? String)?.hasSuffix("Walking") == true }?["id"] as? String)
    let stdout = try vital.run(["health", "workout", walk, "--gpx", "-"])
    #expect(stdout.status == 0 && stdout.stdout.hasPrefix("<?xml"))
    let written = vital.root + "/stdout.gpx"
    try stdout.stdout.write(toFile: written, atomically: true, encoding: .utf8)
    let routes = vital.root + "/gpx/workout-routes"
    let original = try #require(
      try FileManager.default.contentsOfDirectory(atPath: routes).first { $0.contains("_1.50am") })
    _ = try runChecker("check-gpx", [written, routes + "/" + original])
    let shown = try vital.run(["health", "workout", walk])
    #expect(shown.stdout.contains("walking") && shown.stdout.contains("241 points"), "\(shown.stdout)")
  }

  @Test func preferringThePhoneKeepsTheWatchsRoute() throws {
    let (file, expected) = try generate("prefer")
    try #require(try vital.run(["health", "import", file]).status == 0)
    try #require(try vital.run(["health", "sources", "--prefer", "Anna’s iPhone"]).status == 0)
    let got = try listed()
    try #require(got.count == expected.count)
    let runs = got.filter { ($0["also_recorded_by"] as? [String]) == ["Anna’s Apple Watch"] }
    #expect(runs.count == 3, "the iPhone's copies are listed now, the Watch's named")
    for (g, w) in zip(got, expected) { #expect(g["route_points"] as? Int == w["route_points"] as? Int) }
    let run = try #require(runs.first { ($0["route_points"] as? Int ?? 0) > 0 })
    let out = vital.root + "/phone.gpx"
    let written = try vital.run(["health", "workout", try #require(run["id"] as? String), "--gpx", out])
    #expect(written.status == 0, "the phone's run shows the Watch's route: \(written.stderr)")
    #expect(written.stdout.contains("\(run["route_points"]!) points"))
  }

  @Test func aZipWithAHugeRouteAndABrokenOneKeepsTheRest() throws {
    // 10 million points (a gigabyte of GPX, compressed to little): read only up to the bound.
    let (file, expected) = try generate("zip", ["--zip", "--huge-route", "10000000"])
    let run = try vital.run(["health", "import", file, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    let warnings = run.stderrLines
    #expect(warnings.count == 2, "\(run.stderr)")
    #expect(warnings.contains { $0.hasPrefix("warning: route_huge.gpx: it holds more than 200000 points") })
    #expect(warnings.contains { $0.contains("does not hold it") })
    #expect(run.object?["routes"] as? Int == 3)
    let got = try listed()
    #expect(got.count == expected.count + 1)
    let cycling = got.first { ($0["type"] as? String)?.hasSuffix("Cycling") == true }
    #expect(cycling?["route_points"] as? Int == 0, "the huge route is left out whole")
    #expect(
      got.reduce(0) { $0 + ($1["route_points"] as? Int ?? 0) }
        == expected.reduce(0) { $0 + ($1["route_points"] as? Int ?? 0) })
  }

  @Test func aRouteFileThatIsNotGPXIsNamedAndLeftOut() throws {
    let (file, _) = try generate("broken")
    let routes = vital.root + "/broken/workout-routes"
    let first = try #require(try FileManager.default.contentsOfDirectory(atPath: routes).sorted().first)
    try "<gpx><trk><trkseg><trkpt lat=\"95\" lon=\"13\"><time>2026-03-27T18:00:00Z</time></trkpt>"
      .write(toFile: routes + "/" + first, atomically: true, encoding: .utf8)
    let run = try vital.run(["health", "import", file, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("warning: \(first): "), "\(run.stderr)")
    #expect(run.object?["routes"] as? Int == 2)
    let none = try vital.run(["health", "workouts", "--type", "swimming"])
    #expect(none.status == 0 && none.stdout.contains("No swimming workouts; yours are "), "\(none.stdout)")
    let typo = try vital.run(["health", "workouts", "--type", "run"])
    #expect(typo.stdout.contains("No run workouts; yours are ") && typo.stdout.contains("running"), "\(typo.stdout)")
    let unknown = try vital.run(["health", "workout", "wo-nothing"])
    expectCleanError(unknown, mentioning: "vital health workouts")
  }

  /// Exports before iOS 12 wrote a route inside its workout, as `Location` elements: the real
  /// excerpt in the fixtures has one of two points, kept and written back as GPX.
  @Test func anOlderExportsRouteInsideItsWorkoutIsKept() throws {
    let file = HealthCLITests.fixtures + "/apple-health/healthkit-to-sqlite-export.xml"
    let run = try vital.run(["health", "import", file, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    #expect(run.object?["routes"] as? Int == 1, "\(run.stdout)")
    #expect(!run.stderr.contains("warning:"), "\(run.stderr)")
    let workouts = try #require(try vital.run(["health", "workouts", "--json"]).json as? [[String: Any]])
    let id = try #require(workouts.first?["id"] as? String)
    #expect(workouts.first?["route_points"] as? Int == 2)
    let gpx = try vital.run(["health", "workout", id, "--gpx", "-"])
    #expect(gpx.status == 0 && gpx.stdout.components(separatedBy: "<trkpt").count == 3, "\(gpx.stdout)")
    #expect(gpx.stdout.contains("lat=\"37.7777\"") && gpx.stdout.contains("<ele>21.2694</ele>"), "\(gpx.stdout)")
    #expect(try vital.run(["health", "import", file, "--json"]).object?["inserted"] as? Int == 0)
  }
}
