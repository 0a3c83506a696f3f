import Foundation
import Testing

/// `vital report`: one self-contained page, opened in a real headless Chromium (scripts/check-report)
/// and printed to PDF through it.
@Suite struct ReportTests {
  let vital: VitalHome
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T09:00:00Z"
    try ExportImportTests.register(vital, "anna@example.org")
  }

  func ok(_ arguments: [String]) throws { try ExportImportTests.ok(vital, arguments) }

  /// A year of a donor's life: four donations with haemoglobin, six periods, a medication taken
  /// and missed over weeks, two months of steps against a goal, a watched place.
  func fillAYear() throws {
    try ok(["profile", "set", "--name", "Anna", "--surname", "Muster", "--sex", "female", "--birth-date", "1990-04-01"])
    for (day, hb) in [("2026-01-10", "13.4"), ("2026-03-20", "12.9"), ("2026-06-01", "13.1"), ("2026-08-15", "12.6")] {
      try ok(["donor", "record", "--at", "\(day)T10:00", "--place", "DRK <Mitte> & Co", "--hb", hb])
    }
    for (start, end) in [
      ("2026-06-03", "2026-06-07"), ("2026-07-01", "2026-07-05"), ("2026-07-30", "2026-08-03"),
      ("2026-08-27", "2026-08-31"), ("2026-09-26", "2026-09-30"), ("2026-10-24", "2026-10-28"),
    ] {
      try ok(["cycle", "log", "--start", start, "--end", end])
    }
    try ok(["goals", "add", "--type", "steps", "--target", "8000"])
    for i in 1...60 {
      let day = Date(timeIntervalSince1970: 1_795_003_200 - Double(i) * 86_400)  // noon UTC, days before 2026-11-18
      let text = ISO8601DateFormatter().string(from: day)
      try ok(["health", "add", "--type", "steps", "--value", "\(3000 + (i * 997) % 9000)", "--at", text])
    }
    vital.environment["VITAL_NOW"] = "2026-10-01T06:00:00Z"
    try ok(["meds", "add", "Ramipril", "--at", "08:00", "--at", "20:00", "--dose", "5 mg", "--stock", "120"])
    vital.environment["VITAL_NOW"] = "2026-11-22T09:00:00Z"
    for day in stride(from: 1, through: 50, by: 3) {
      let at = Date(timeIntervalSince1970: 1_790_920_800 + Double(day) * 86_400)  // 2026-10-02 08:00 in Berlin, and on
      try ok(["meds", "take", "ramipril", "--at", ISO8601DateFormatter().string(from: at)])
    }
    try ok(["area", "watch", "add", "--lat", "52.52", "--lon", "13.405", "--label", "Home"])
  }

  func check(_ page: String) throws -> [String: Any] {
    let shot = Self.root.appendingPathComponent(
      ".build/test-screenshots/\(URL(fileURLWithPath: page).lastPathComponent).png")
    try FileManager.default.createDirectory(at: shot.deletingLastPathComponent(), withIntermediateDirectories: true)
    let result = try runChecker("check-report", [page, shot.path])
    #expect(FileManager.default.fileExists(atPath: shot.path), "a screenshot for a person to look at")
    return try #require(try JSONSerialization.jsonObject(with: result) as? [String: Any])
  }

  static func pdfPages(_ path: String) throws -> Int {
    let info = Process()
    info.executableURL = URL(fileURLWithPath: "/usr/bin/pdfinfo")
    info.arguments = [path]
    let out = Pipe()
    info.standardOutput = out
    try info.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    info.waitUntilExit()
    let line = text.split(separator: "\n").first { $0.hasPrefix("Pages:") }
    return Int(line?.split(separator: " ").last ?? "") ?? -1
  }

  @Test func aYearOfRecordsDrawsEveryChartWithNoConsoleErrorAndPrintsToTheSamePages() throws {
    try fillAYear()
    let page = vital.root + "/report.html"
    try ok(["report", "--out", page])
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(!html.contains("<script"), "no script needed to read it")
    #expect(html.contains("DRK &lt;Mitte&gt; &amp; Co"), "text is escaped")
    #expect(html.contains("@page { size: A4"))

    let seen = try check(page)
    #expect((seen["console"] as? [Any])?.isEmpty == true, "\(seen["console"] ?? "")")
    #expect((seen["requests"] as? [Any])?.isEmpty == true, "self-contained: \(seen["requests"] ?? "")")
    let charts = try #require(seen["charts"] as? [String: [String: Any]])
    #expect(Set(charts.keys) == ["donations", "cycles", "adherence", "steps"])
    for (name, chart) in charts {
      #expect((chart["shapes"] as? Int ?? 0) > 0, "\(name) draws something")
      #expect((chart["width"] as? Double ?? 0) > 300 && (chart["height"] as? Double ?? 0) > 100, "\(name): \(chart)")
      #expect((chart["title"] as? String)?.isEmpty == false && (chart["label"] as? String)?.isEmpty == false)
    }
    #expect(charts["donations"]?["shapes"] as? Int == 9, "4 donations, 4 Hb points, the trend line")
    #expect(charts["cycles"]?["shapes"] as? Int == 5, "6 periods make 5 cycles")
    let sections = try #require(seen["sections"] as? [String: [String: Any]])
    #expect(sections.filter { $0.value["empty"] as? Bool == true }.isEmpty, "\(sections)")
    let pages = try #require(seen["pages"] as? Int)
    #expect(pages >= 2)

    let pdf = vital.root + "/report.pdf"
    try ok(["report", "--pdf", "--out", pdf])
    let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: pdf)).read(upToCount: 5)
    #expect(head == Data("%PDF-".utf8))
    #expect(try Self.pdfPages(pdf) == pages, "the PDF has the pages the print layout needs")
  }

  @Test func anEmptyHomeSaysSoInEverySectionAndDrawsNoEmptyAxes() throws {
    let page = vital.root + "/empty.html"
    try ok(["report", "--out", page])
    let seen = try check(page)
    #expect((seen["console"] as? [Any])?.isEmpty == true)
    #expect((seen["charts"] as? [String: Any])?.isEmpty == true)
    let sections = try #require(seen["sections"] as? [String: [String: Any]])
    for id in ["donations", "cycle", "medications", "steps", "places"] {
      #expect(sections[id]?["empty"] as? Bool == true, "\(id) says it has nothing")
    }
    #expect(seen["pages"] as? Int == 1)
    let pdf = vital.root + "/empty.pdf"
    try ok(["report", "--pdf", "--out", pdf])
    #expect(try Self.pdfPages(pdf) == 1)
  }

  @Test func badOptionsAndAMissingBrowserAreRefusedWithNothingWritten() throws {
    #expect(try vital.run(["report", "--from", "2026-05-01", "--to", "2026-04-01"]).status == 64)
    #expect(try vital.run(["report", "--from", "May"]).status == 64)
    #expect(try vital.run(["report", "--pdf"]).status == 64, "--pdf needs --out")
    vital.environment["PATH"] = vital.root + "/no-browser-here"
    let pdf = vital.root + "/none.pdf"
    expectCleanError(try vital.run(["report", "--pdf", "--out", pdf]), mentioning: "apt install chromium")
    #expect(!FileManager.default.fileExists(atPath: pdf))
  }
}
