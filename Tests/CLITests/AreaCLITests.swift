import Foundation
import Testing

@Suite struct AreaCLITests {
  let vital: VitalHome
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").path

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2020-10-16T08:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "area@example.org", "--password-stdin"], stdin: "lilac harbour 1987 teaspoon\n"
    )
    try #require(run.status == 0, "\(run.stderr)")
    let imported = try vital.run([
      "area", "import", Self.fixtures + "/geo/bavaria-districts-rki-2020-10-15.geojson", "--json",
    ])
    try #require(imported.status == 0, "\(imported.stderr)")
    #expect(imported.object?["imported"] as? Int == 96)
  }

  @Test func locateMarienplatzWithFiguresFromTheGeoJSON() throws {
    let stats = try vital.run([
      "area", "stats", Self.fixtures + "/geo/bavaria-districts-rki-2020-10-15.geojson", "--json",
    ])
    #expect(stats.object?["districts"] as? Int == 96)
    let run = try vital.run(["area", "locate", "--lat", "48.1374", "--lon", "11.5755", "--json"])
    let object = try #require(run.object, "\(run.stderr)")
    #expect((object["area"] as? [String: Any])?["name"] as? String == "München")
    #expect(object["as_of"] as? String == "2020-10-15")
    #expect(object["phase"] as? String == "red")
    #expect((object["guidelines"] as? [String])?.count == 3)
    let german = try vital.run(["area", "locate", "--lat", "48.1374", "--lon", "11.5755", "--lang", "de"]).stdout
    #expect(german.contains("phase: rot"))
    expectCleanError(try vital.run(["area", "locate", "--lat", "47.60", "--lon", "9.40"]), mentioning: "no district")
    let bad = try vital.run(["area", "locate", "--lat", "200", "--lon", "9.40"])
    #expect(bad.status == 64)
  }

  @Test func pointsFromAFileOneRowEach() throws {
    #expect(try vital.run(["area", "stats", Self.fixtures + "/rki/RKI_Corona_Landkreise_2020-10-15.csv"]).status == 0)
    let file = vital.root + "/points.csv"
    let points = "48.1374,11.5755,Marienplatz\n49.0195,12.0979,\"Dom, Regensburg\"\n48.8566,2.3522,Paris\n"
    #expect(FileManager.default.createFile(atPath: file, contents: Data(points.utf8)))
    let csv = try vital.run(["area", "locate", "--points", file])
    #expect(csv.status == 0, "\(csv.stderr)")
    #expect(
      csv.stdout == "lat,lon,label,area_id,area_name,incidence,as_of,phase\r\n"
        + "48.1374,11.5755,Marienplatz,09162,München,54.57,2020-10-15,red\r\n"
        + "49.0195,12.0979,\"Dom, Regensburg\",09362,Regensburg,38.54,2020-10-15,yellow\r\n"
        + "48.8566,2.3522,Paris,,,,,outside\r\n")
    let json = try #require(try vital.run(["area", "locate", "--points", file, "--json"]).json as? [[String: Any]])
    #expect(json.count == 3)
    #expect(FileManager.default.createFile(atPath: file, contents: Data("48.1,11.5\nnorth,east\n".utf8)))
    expectCleanError(try vital.run(["area", "locate", "--points", file]), mentioning: "line 2")
  }

  @Test func phasesAndWatches() throws {
    let phases = try #require(try vital.run(["area", "phases", "--json"]).json as? [[String: Any]])
    #expect(phases.compactMap { $0["phase"] as? String } == ["green", "yellow", "red", "dark-red"])
    #expect(phases.last?["above"] as? Int == 100)
    expectCleanError(try vital.run(["area", "phases", "--thresholds", "50,35,100"]), mentioning: "increasing")
    #expect(try vital.run(["area", "stats", Self.fixtures + "/rki/RKI_Corona_Landkreise_2020-10-15.csv"]).status == 0)
    #expect(
      try vital.run(["area", "watch", "add", "--lat", "48.1374", "--lon", "11.5755", "--label", "Office"]).status == 0)
    #expect((try vital.run(["area", "watch", "check", "--json"]).object?["changes"] as? [Any])?.isEmpty == true)
    // New thresholds move München (54.6) from red to yellow: reported once.
    #expect(try vital.run(["area", "phases", "--thresholds", "35,60,100"]).status == 0)
    let check = try vital.run(["area", "watch", "check"])
    #expect(check.stdout == "Office: red -> yellow\n")
    #expect(try vital.run(["area", "watch", "check"]).stdout.hasPrefix("no phase changes"))
    let reminders = try #require(
      try vital.run(["reminders", "list", "--from", "2020-10-16", "--to", "2020-10-17", "--json"]).json
        as? [[String: Any]])
    #expect(reminders.compactMap { $0["title"] as? String } == ["Office: phase now yellow"])
  }

  @Test func malformedFilesChangeNothing() throws {
    let file = vital.root + "/bad.geojson"
    #expect(
      FileManager.default.createFile(
        atPath: file, contents: Data("{\"type\":\"FeatureCollection\",\"features\":[1]}".utf8)))
    expectCleanError(try vital.run(["area", "import", file]), mentioning: "feature 1")
    #expect(FileManager.default.createFile(atPath: file, contents: Data("RS,cases7_per_100k\n09162,abc\n".utf8)))
    expectCleanError(try vital.run(["area", "stats", file]), mentioning: "not a number")
    let before = try vital.run(["area", "locate", "--lat", "48.1374", "--lon", "11.5755", "--json"]).stdout
    // Figures no district can have: refused with their row, not counted and stored empty.
    for figure in ["inf", "1e308", "-5", "nan"] {
      #expect(
        FileManager.default.createFile(
          atPath: file, contents: Data("RS,cases7_per_100k\n09162,12.5\n09163,\(figure)\n".utf8)))
      expectCleanError(try vital.run(["area", "stats", file]), mentioning: "line 3")
    }
    #expect(
      FileManager.default.createFile(
        atPath: file,
        contents: Data(
          #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"RS":"09162","cases7_per_100k":1e308},"geometry":null}]}"#
            .utf8)))
    expectCleanError(try vital.run(["area", "stats", file]), mentioning: "feature 1")
    #expect(try vital.run(["area", "locate", "--lat", "48.1374", "--lon", "11.5755", "--json"]).stdout == before)
    // Booleans are no coordinates.
    let ring = "[[true,false],[1,0],[1,1],[true,false]]"
    #expect(
      FileManager.default.createFile(
        atPath: file,
        contents: Data(
          #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"RS":"1"},"geometry":{"type":"Polygon","coordinates":[RING]}}]}"#
            .replacingOccurrences(of: "RING", with: ring).utf8)))
    expectCleanError(try vital.run(["area", "import", file]), mentioning: "feature 1", "numbers")
    let located = try vital.run(["area", "locate", "--lat", "48.1374", "--lon", "11.5755", "--json"])
    #expect((located.object?["area"] as? [String: Any])?["id"] as? String == "09162", "the districts are still there")
  }
}
