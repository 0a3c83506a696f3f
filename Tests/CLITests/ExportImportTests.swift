import Foundation
import Testing

/// `vital export` and `vital import`: every record out and back in, byte for byte, all or nothing.
@Suite struct ExportImportTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").path
  static let password = "lilac harbour 1987 teaspoon\n"

  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T09:00:00Z"
    try Self.register(vital, "owner@example.org")
  }

  static func register(_ home: VitalHome, _ email: String) throws {
    let run = try home.run(["account", "register", "--email", email, "--password-stdin"], stdin: password)
    try #require(run.status == 0, "\(run.stderr)")
  }

  func ok(_ arguments: [String], stdin: String? = nil) throws { try Self.ok(vital, arguments, stdin: stdin) }

  static func ok(_ vital: VitalHome, _ arguments: [String], stdin: String? = nil) throws {
    let run = try vital.run(arguments, stdin: stdin)
    try #require(run.status == 0, "\(arguments): \(run.stderr)")
  }

  func fillEveryKind() throws { try Self.fillEveryKind(vital) }

  /// A home with every kind of record the export carries, as of 2026-11-22 09:00 UTC.
  static func fillEveryKind(_ vital: VitalHome) throws {
    func ok(_ arguments: [String], stdin: String? = nil) throws { try Self.ok(vital, arguments, stdin: stdin) }
    try ok([
      "profile", "set", "--blood-type", "A+", "--sex", "female", "--weight-kg", "62.5", "--birth-date", "1990-04-01",
    ])
    let png = vital.root + "/me.png"
    try TestImagesFile.png(at: png)
    try ok(["profile", "avatar", "set", png])
    try ok([
      "donor", "record", "--at", "2026-03-01T10:00", "--place", "DRK \"Mitte\", Berlin", "--hb", "13.4", "--bp",
      "121/79",
    ])
    try ok(["donor", "record", "--at", "2026-07-01T10:00", "--place", "DRK Zehlendorf\nHaus 2", "--ferritin", "41"])
    let questions = try vital.run(["donor", "questions", "--json"]).json as? [[String: Any]] ?? []
    let none = Dictionary(uniqueKeysWithValues: questions.compactMap { $0["id"] as? String }.map { ($0, false) })
    try ok(
      ["donor", "questionnaire", "--answers", "-"],
      stdin: String(decoding: try JSONSerialization.data(withJSONObject: none), as: UTF8.self))
    try ok(["cycle", "log", "--start", "2026-10-02", "--end", "2026-10-06"])
    try ok(["cycle", "log", "--start", "2026-10-30", "--end", "2026-11-03"])
    try ok(["cycle", "note", "--date", "2026-11-05", "--temperature", "36.55", "--mucus", "creamy", "--pain", "cramps"])
    try ok(["cycle", "pause", "--from", "2026-08-01", "--to", "2026-08-20", "--reason", "contraception"])
    try ok(["cycle", "exclude", "--start", "2026-10-02"])
    try ok(["meds", "add", "Ramipril", "--at", "10:30", "--stock", "60"])
    try ok(["meds", "take", "ramipril"])
    try ok(["health", "import", fixtures + "/apple-health/ios17-export.zip"])
    try ok(["health", "import", fixtures + "/apple-health/healthkit-to-sqlite-export.xml"])
    try ok(["goals", "add", "--type", "steps", "--target", "8000"])
    try ok(["area", "watch", "add", "--lat", "52.52", "--lon", "13.405", "--label", "Home ✓"])
    try ok(["reminders", "enable", "cycle"])
    try ok(["reminders", "discreet", "on"])
    try ok(["reminders", "enable", "temperature", "--at", "06:45"])
  }

  func export(_ home: VitalHome, to path: String) throws -> [String: Any] {
    let run = try home.run(["export", "--out", path, "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    return try #require(run.object)
  }

  @Test func exportImportExportIsByteIdenticalAndASecondImportAddsNothing() throws {
    try fillEveryKind()
    let first = vital.root + "/first.json"
    let written = try export(vital, to: first)
    let perDataset = try #require(written["datasets"] as? [String: Int])
    for name in [
      "blob", "profile", "questionnaire", "donation", "period", "cycle_note", "cycle_pause", "medication", "dose",
      "health_source", "health_sample",
      "workout", "activity_summary", "goal", "area_watch",
    ] {
      #expect((perDataset[name] ?? 0) > 0, "\(name) exported: \(perDataset)")
    }
    // Any JSON parser reads it as one document.
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: first))) as? [String: Any])
    #expect(document["format"] as? String == "vital-export" && document["version"] as? Int == 1)
    #expect((document["sha256"] as? String)?.count == 64)

    let fresh = try VitalHome()
    fresh.environment = vital.environment
    fresh.environment["VITAL_NOW"] = "2026-11-24T18:00:00Z"
    try Self.register(fresh, "owner@example.org")
    let imported = try fresh.run(["import", first, "--json"])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.object?["records"] as? Int == written["records"] as? Int)
    #expect(imported.object?["settings"] as? Int == 3)
    let second = fresh.root + "/second.json"
    _ = try export(fresh, to: second)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)),
      "export → import → export is byte-identical")
    // What the fresh home shows, not only what it writes back out.
    #expect(try fresh.run(["donor", "vitals", "--json"]).object?["donations"].map { ($0 as? [Any])?.count } == 2)
    #expect(try fresh.run(["reminders", "discreet", "--json"]).status == 0)
    #expect(try fresh.run(["cycle", "day", "2026-11-05", "--json"]).object?["mucus"] as? String == "creamy")
    #expect(
      try fresh.run(["reminders", "enable", "donation", "--json"]).object?["temperature_at"] as? String == "06:45")

    let again = try fresh.run(["import", first, "--json"])
    #expect(again.object?["inserted"] as? Int == 0, "\(again.stdout)")
    #expect(again.object?["updated"] as? Int == 0)
    #expect(again.object?["unchanged"] as? Int == written["records"] as? Int)
  }

  @Test func anImportIntoAnotherAccountTakesItsProfileAndUndoTakesItBack() throws {
    try fillEveryKind()
    let file = vital.root + "/owner.json"
    _ = try export(vital, to: file)
    let other = try VitalHome()
    other.environment = vital.environment
    try Self.register(other, "someone.else@example.org")
    #expect(try other.run(["donor", "record", "--at", "2026-01-05T10:00", "--place", "Own place"]).status == 0)
    let run = try other.run(["import", file])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("imported "), "\(run.stdout)")
    let profile = try #require(try other.run(["profile", "show", "--json"]).object)
    #expect(profile["sex"] as? String == "female", "\(profile)")
    #expect(try other.run(["donor", "history", "--json"]).json.map { ($0 as? [Any])?.count } == 3)
    #expect(try other.run(["undo", "--yes"]).status == 0)
    #expect(try other.run(["donor", "history", "--json"]).json.map { ($0 as? [Any])?.count } == 1)
  }

  @Test func aTruncatedTamperedOrForeignFileIsRefusedAndNothingIsWritten() throws {
    try fillEveryKind()
    let file = vital.root + "/owner.json"
    _ = try export(vital, to: file)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    let text = String(decoding: bytes, as: UTF8.self)

    let target = try VitalHome()
    target.environment = vital.environment
    try Self.register(target, "owner@example.org")
    let before = target.root + "/before.json"
    _ = try export(target, to: before)

    let cases: [(String, Data, String)] = [
      ("cut", bytes.prefix(bytes.count * 2 / 3), "cut short"),
      ("cut-at-checksum", Data(text.components(separatedBy: "\"sha256\"")[0].utf8), "cut short"),
      (
        "tampered", Data(text.replacingOccurrences(of: "Zehlendorf", with: "Zehlendorg").utf8), "SHA-256 does not match"
      ),
      ("foreign", Data("{\"resourceType\":\"Patient\"}\n".utf8), "neither a Vital export nor a FHIR bundle"),
      ("empty-bundle", Data("{\"resourceType\":\"Bundle\",\"type\":\"collection\"}".utf8), "no entries"),
      ("newer", Data(text.replacingOccurrences(of: "\"version\":1,", with: "\"version\":9,").utf8), "newer Vital"),
      (
        "broken-line", Data(text.replacingOccurrences(of: "\"label\":", with: "\"label\"").utf8),
        "the file is damaged or was edited"
      ),
    ]
    for (name, data, message) in cases {
      let path = target.root + "/\(name).json"
      try data.write(to: URL(fileURLWithPath: path))
      expectCleanError(try target.run(["import", path]), mentioning: message)
    }
    let after = target.root + "/after.json"
    _ = try export(target, to: after)
    #expect(try Data(contentsOf: URL(fileURLWithPath: before)) == Data(contentsOf: URL(fileURLWithPath: after)))
    #expect(try target.run(["donor", "history", "--json"]).json.map { ($0 as? [Any])?.count } == 0)
  }

  @Test func exportToStdoutAndUsageErrors() throws {
    try ok(["donor", "record", "--at", "2026-03-01T10:00", "--place", "DRK"])
    let run = try vital.run(["export"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("{\"format\":\"vital-export\",\"version\":1,\n"))
    #expect(run.stdout.hasSuffix("\"}\n"))
    #expect(try vital.run(["export", "--json"]).status == 64, "--json needs --out")
    #expect(try vital.run(["export", "--format", "xml"]).status == 64)
    expectCleanError(try vital.run(["import", vital.root + "/missing.json"]), mentioning: "cannot read")
  }
}
