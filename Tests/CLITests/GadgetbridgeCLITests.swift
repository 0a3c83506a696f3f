import Foundation
import Testing

/// `vital health import Gadgetbridge.db` through the real binary, on a database made with
/// Gadgetbridge's own table definitions (scripts/gen-gadgetbridge): a Mi Band 3 worn for days
/// beside an iPhone in Apple Health, then a Zepp OS watch and a Pebble. Each minute counted
/// once, against the generator's second-by-second figures; the file never changed.
@Suite struct GadgetbridgeCLITests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-04-03T10:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "band@example.org", "--password-stdin"], stdin: "lilac harbour 1987 teaspoon\n"
    )
    try #require(run.status == 0, "\(run.stderr)")
  }

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The database, the iPhone's export beside it, and the expected figures.
  func generate() throws -> (db: String, apple: String, expected: [String: Any]) {
    let (db, apple, expected) = (vital.root + "/Gadgetbridge", vital.root + "/phone.xml", vital.root + "/gb.json")
    let gen = Process()
    gen.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    gen.arguments = [
      Self.root.appendingPathComponent("scripts/gen-gadgetbridge").path, db, "--start", "2026-03-27", "--days", "3",
      "--apple", apple, "--expected", expected,
    ]
    gen.standardOutput = FileHandle.nullDevice
    try gen.run()
    gen.waitUntilExit()
    try #require(gen.terminationStatus == 0, "the generator failed")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: expected)))
    return (db, apple, try #require(json as? [String: Any]))
  }

  func steps(_ day: String) throws -> Double? {
    let run = try vital.run(["health", "summary", "--date", day, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    return run.object?["steps"] as? Double
  }

  @Test func eachMinuteCountsOnceBesideTheIPhoneAndTheFileIsNeverChanged() throws {
    let (db, apple, expected) = try generate()
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let run = try vital.run(["health", "import", db, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "the file is opened read-only")
    for suffix in ["-wal", "-shm", "-journal"] {
      #expect(!FileManager.default.fileExists(atPath: db + suffix), "no \(suffix) beside it")
    }
    let summary = try #require(run.object)
    #expect((summary["devices"] as? [String])?.sorted() == ["Amazfit GTR 4", "Mi Band 3", "Pebble on the nightstand"])
    #expect((summary["not_read"] as? [String: Int])?.keys.sorted() == ["BATTERY_LEVEL"], "unknown tables are named")
    #expect(try vital.run(["health", "import", apple]).status == 0)
    // The band is a watch: over each of its minutes the iPhone's steps do not count.
    let want = try #require(expected["steps"] as? [String: Double])
    for (day, steps) in want {
      let got = try #require(try self.steps(day), "\(day) has steps")
      #expect(abs(got - steps) < 0.01, "\(day): \(got) ≠ \(steps)")
    }
    #expect(try steps("2026-03-30") == 1920, "the Zepp OS watch's hour")
    // Sleep by stage on the day each night ends, the Pebble's included.
    let sleep = try vital.run(["health", "sleep", "--days", "8", "--json"])
    let nights = try #require(sleep.json as? [[String: Any]])
    var stages = try #require(expected["sleep_by_day"] as? [String: [String: Int]])
    stages["2026-03-31"] = ["core": 19_800, "deep": 3600]
    for night in nights {
      let day = try #require(night["date"] as? String)
      guard let want = stages[day] else { continue }
      #expect(night["core_s"] as? Int == want["core"], "\(day) core: \(night["core_s"] ?? "nil")")
      #expect(night["deep_s"] as? Int == want["deep"], "\(day) deep: \(night["deep_s"] ?? "nil")")
      // Neither the band nor the Pebble tells REM or waking: unknown, not 0.
      #expect(night["rem_s"] is NSNull && night["awake_s"] is NSNull && night["awake_periods"] is NSNull, "\(night)")
    }
    let table = try vital.run(["health", "sleep", "--days", "8"])
    #expect(!table.stdout.contains("(0×)"), "\(table.stdout)")
    #expect(nights.filter { !($0["asleep_s"] is NSNull) }.count == stages.count, "\(nights)")
    let vitals = try vital.run(["health", "vitals", "--type", "heart-rate", "--days", "8", "--json"])
    let rows = try #require(vitals.json as? [[String: Any]])
    #expect(rows.contains { ($0["count"] as? Int ?? 0) > 1000 }, "a reading a minute while worn")
    #expect(rows.allSatisfy { ($0["max"] as? Double ?? 0) <= 250 }, "255 is no reading")
    // Again: nothing new; nor after the band was given a name in Gadgetbridge and exported again.
    let again = try vital.run(["health", "import", db, "--json"])
    #expect(again.object?["inserted"] as? Int == 0)
    let renamed = vital.root + "/renamed.db"
    try FileManager.default.copyItem(atPath: db, toPath: renamed)
    // Python's sqlite3 leaves the file in Gadgetbridge's journal mode, as the phone would.
    let rename = Process()
    rename.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    rename.arguments = [
      "-c",
      "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        + "c.execute(\"UPDATE DEVICE SET ALIAS = 'Bob''s band' WHERE NAME = 'Mi Band 3'\"); c.commit()",
      renamed,
    ]
    try rename.run()
    rename.waitUntilExit()
    try #require(rename.terminationStatus == 0)
    let afterRename = try vital.run(["health", "import", renamed, "--json"])
    #expect(afterRename.status == 0 && afterRename.object?["inserted"] as? Int == 0, "\(afterRename.stdout)")
  }

  @Test func aFileThatIsNotGadgetbridgesIsRefusedWithNothingWritten() throws {
    let junk = vital.root + "/junk.db"
    try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: junk))
    expectCleanError(try vital.run(["health", "import", junk]), mentioning: "neither an Apple Health export")
    // Another app's SQLite database.
    let other = vital.root + "/notes.db"
    let sqlite = Process()
    sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    sqlite.arguments = [
      "-c",
      "import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); d.execute('create table notes(t)'); d.commit()", other,
    ]
    try sqlite.run()
    sqlite.waitUntilExit()
    expectCleanError(try vital.run(["health", "import", other]), mentioning: "not Gadgetbridge's", "DEVICE table")
    // The header of a database, then nothing that reads.
    let damaged = vital.root + "/Gadgetbridge"
    var bytes = Data("SQLite format 3\0".utf8)
    bytes.append(Data(repeating: 0xA5, count: 8192))
    try bytes.write(to: URL(fileURLWithPath: damaged))
    expectCleanError(try vital.run(["health", "import", damaged]), mentioning: "cannot be read as one")
    let sources = try vital.run(["health", "sources", "--json"])
    #expect((sources.json as? [Any])?.isEmpty == true, "nothing was written: \(sources.stdout)")
  }
}
