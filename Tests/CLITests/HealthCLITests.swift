import Foundation
import Storage
import Testing

@Suite struct HealthCLITests {
  let vital: VitalHome
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").path

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T20:00:00Z"
    let run = try vital.run(
      ["account", "register", "--email", "health@example.org", "--password-stdin"],
      stdin: "lilac harbour 1987 teaspoon\n")
    try #require(run.status == 0, "\(run.stderr)")
  }

  @Test func importTheExportsThenNothingNew() throws {
    let zip = try vital.run(["health", "import", Self.fixtures + "/apple-health/ios17-export.zip", "--json"])
    #expect(zip.status == 0, "\(zip.stderr)")
    #expect(zip.object?["records"] as? Int == 8)
    #expect(zip.object?["inserted"] as? Int == 8)
    #expect(zip.stderr == "", "no progress bar off a terminal")
    let xml = try vital.run(["health", "import", Self.fixtures + "/apple-health/ios17-export.xml", "--json"])
    #expect(xml.object?["inserted"] as? Int == 0)
    #expect(xml.object?["duplicates"] as? Int == 8)
    let summary = try vital.run(["health", "summary", "--date", "2024-01-01", "--json"])
    // Europe/Berlin: the energy sample at 01:02 +0200 on 1 January is 00:02 local.
    #expect(summary.object?["active_energy_kcal"] as? Double == 0.12)
    #expect(summary.object?["exercise_minutes"] as? Int == 1)
  }

  @Test func brokenFilesGetOneClearLine() throws {
    let folder = vital.root
    // The export's CRC-32 (a4 b7 1a 21) changed in both headers: the bytes no longer match it.
    var zip = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/apple-health/ios17-export.zip"))
    let crc = Data([0xA4, 0xB7, 0x1A, 0x21])
    var replaced = 0
    while let range = zip.range(of: crc) {
      zip.replaceSubrange(range, with: Data([0x01, 0x02, 0x03, 0x04]))
      replaced += 1
    }
    #expect(replaced == 2)
    #expect(FileManager.default.createFile(atPath: folder + "/damaged.zip", contents: zip))
    expectCleanError(
      try vital.run(["health", "import", folder + "/damaged.zip"]), mentioning: "damaged", "nothing was imported")
    #expect((try vital.run(["health", "list", "--date", "2024-01-01", "--json"]).json as? [Any])?.isEmpty == true)
    #expect(FileManager.default.createFile(atPath: folder + "/empty.xml", contents: Data()))
    expectCleanError(try vital.run(["health", "import", folder + "/empty.xml"]), mentioning: "empty")
    let full = try String(contentsOfFile: Self.fixtures + "/apple-health/ios17-export.xml", encoding: .utf8)
    #expect(FileManager.default.createFile(atPath: folder + "/cut.xml", contents: Data(full.prefix(2500).utf8)))
    let cut = try vital.run(["health", "import", folder + "/cut.xml"])
    expectCleanError(cut, mentioning: "not well-formed", "line")
    #expect(!cut.stderr.contains("74"), "no health value in the error")
    expectCleanError(try vital.run(["health", "import", folder + "/missing.xml"]), mentioning: "cannot read")
    expectCleanError(try vital.run(["health", "import", folder]), mentioning: "a folder without export.xml")
  }

  @Test func goalsFromTheCatalogueAndByHand() throws {
    #expect(try vital.run(["goals", "import", Self.fixtures + "/seeds/ihealth_Goals.json"]).status == 0)
    #expect(
      try vital.run(["goals", "import", Self.fixtures + "/seeds/ihealth_Goals.json", "--json"]).object?["added"] as? Int
        == 0)
    #expect(
      try vital.run(["health", "add", "--type", "steps", "--value", "7500", "--at", "2026-11-22 10:00"]).status == 0)
    let unknown = try vital.run(["health", "add", "--type", "heartbeats", "--value", "1"])
    #expect(unknown.status == 64 && unknown.stderr.contains("'steps', 'distance', 'energy' or 'exercise'"))
    let progress = try #require(try vital.run(["goals", "progress", "--json"]).json as? [[String: Any]])
    let hard = try #require(progress.first { $0["id"] as? String == "catalogue-1002" })
    #expect(hard["percent"] as? Double == 125)
    let easy = try #require(progress.first { $0["id"] as? String == "catalogue-1000" })
    #expect(easy["percent"] as? Double == 1500)
    let text = try vital.run(["goals", "progress"]).stdout
    #expect(text.contains("[####################]  125%  7500 steps of 6000 steps"), "\(text)")
    #expect(try vital.run(["goals", "remove", "catalogue-1002", "--yes"]).status == 0)
    #expect((try vital.run(["goals", "list", "--json"]).json as? [Any])?.count == 5)
  }

  /// Two people sharing a home, each importing the same files: ids made from the content (a
  /// day's rings, a sample, a catalogue goal) are theirs alone, and neither sees the other's.
  @Test func twoAccountsInOneHomeImportTheSameFiles() throws {
    let files = [
      ["health", "import", Self.fixtures + "/apple-health/ios17-export.zip", "--json"],
      ["health", "import", Self.fixtures + "/apple-health/healthkit-to-sqlite-export.xml", "--json"],
      ["goals", "import", Self.fixtures + "/seeds/ihealth_Goals.json", "--json"],
    ]
    var counts: [[String]] = []
    for (n, email) in ["health@example.org", "second@example.org"].enumerated() {
      if n == 1 {
        let run = try vital.run(
          ["account", "register", "--email", email, "--password-stdin"], stdin: "orchid ferry 2031 walnut\n")
        try #require(run.status == 0, "\(run.stderr)")
      }
      for file in files {
        let run = try vital.run(file)
        #expect(run.status == 0, "\(email) \(file[0]): \(run.stderr)")
      }
      counts.append([
        try vital.run(["health", "list", "--json"]).stdout, try vital.run(["goals", "list", "--json"]).stdout,
        try vital.run(["health", "summary", "--date", "2024-01-01", "--json"]).stdout,
      ])
      #expect((try vital.run(["goals", "list", "--json"]).json as? [Any])?.count == 6)
    }
    #expect(counts[0] == counts[1], "the second account holds what the first does, no more")
    let db = try Database(path: vital.home + "/vital.sqlite")
    #expect(try db.scalar(Int.self, "SELECT count(DISTINCT account_id) FROM activity_summary") == 2)
    #expect(try db.scalar(Int.self, "SELECT count(DISTINCT account_id) FROM health_sample") == 2)
  }
}
