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
    let body = vital.root + "/body.xml"
    try HealthTotalsCLITests.generate(
      body, ["--sources", "watch,phone", "--start", "2026-11-01", "--days", "10", "--vitals", "--sleep"])
    try ok(["health", "import", body])
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
    #expect(
      Set(charts.keys) == [
        "donations", "cycles", "adherence", "steps", "sleep", "weight", "resting-heart-rate", "blood-pressure",
      ])
    for (name, chart) in charts {
      #expect((chart["shapes"] as? Int ?? 0) > 0, "\(name) draws something")
      #expect((chart["width"] as? Double ?? 0) > 300 && (chart["height"] as? Double ?? 0) > 100, "\(name): \(chart)")
      #expect((chart["title"] as? String)?.isEmpty == false && (chart["label"] as? String)?.isEmpty == false)
    }
    #expect(charts["donations"]?["shapes"] as? Int == 5, "4 Hb points and their line; no unlabelled dots")
    #expect(charts["cycles"]?["shapes"] as? Int == 5, "6 periods make 5 cycles")
    // The steps chart spans the steps (the 60 days before 18 Nov), not the year of the window.
    let steps = try #require(charts["steps"])
    let from = try #require((steps["x_from"] as? String).flatMap(Self.day))
    #expect(
      from >= Self.day("2026-09-12")! && from <= Self.day("2026-09-19")!, "within a week of the first sample: \(from)")
    for (name, chart) in charts {
      for tick in chart["ticks"] as? [String] ?? [] {
        #expect(tick.wholeMatch(of: /\d\d-\d\d-\d\d/) == nil, "\(name): '\(tick)' reads as a date three ways")
      }
    }
    // On a phone every chart with a value axis keeps it in view, its frame scrolled to the end.
    let phone = try #require(seen["phone"] as? [String: [String: Any]])
    #expect(Set(phone.keys) == Set(charts.keys))
    for (name, chart) in phone {
      let ticks = chart["axis_ticks"] as? [String] ?? []
      #expect(!ticks.isEmpty && chart["axis_ticks_seen"] as? [String] == ticks, "\(name): \(chart)")
      #expect(chart["scrolled"] as? Bool == true, "\(name) is wider than a phone: \(chart)")
      #expect(
        (chart["offset"] as? Double ?? 99) <= 0.5, "\(name)'s pinned axis is drawn at the chart's scale: \(chart)")
    }
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

  static func day(_ text: String) -> Date? {
    let f = DateFormatter()
    f.dateFormat = "yyyy-MM-dd"
    f.timeZone = TimeZone(identifier: "UTC")
    return f.date(from: text)
  }

  /// What a new user's report got wrong for a doctor: the printed date as a machine writes it, a
  /// taper as its raw steps, no last period, no temperature curve, a place's phase without its
  /// figure or its age.
  @Test func aDoctorReadsEveryFigureInWords() throws {
    vital.environment["VITAL_NOW"] = "2026-11-26T08:00:00Z"  // Thursday 09:00 in Berlin
    try ok(["profile", "set", "--sex", "female", "--birth-date", "1990-04-01", "--region", "de"])
    for (start, end) in [("2026-09-02", "2026-09-06"), ("2026-09-30", "2026-10-04"), ("2026-10-31", "2026-11-04")] {
      try ok(["cycle", "add", "--start", start, "--end", end])
    }
    let temps = [
      "36.45", "36.40", "36.50", "36.45", "36.35", "36.45", "36.50", "36.40", "36.45", "36.50", "36.45", "36.40",
      "36.50", "36.45", "36.80", "36.85", "36.90", "36.85", "36.95", "36.90",
    ]
    for (i, t) in temps.enumerated() {
      let day = String(format: "2026-%02d-%02d", i < 1 ? 10 : 11, i < 1 ? 31 : i)
      try ok(["cycle", "note", "--date", day, "--temperature", t])
    }
    try ok([
      "meds", "add", "Prednisolone", "--at", "07:30", "--steps", "20 mg:5d,10 mg:5d,5 mg:7d", "--start", "2026-11-20",
    ])
    try ok(["area", "import", Self.root.path + "/Tests/Fixtures/geo/bavaria-districts-rki-2020-10-15.geojson"])
    try ok(["area", "stats", Self.root.path + "/Tests/Fixtures/rki/RKI_Corona_Landkreise_2020-10-15.csv"])
    try ok(["area", "watch", "add", "--lat", "48.1374", "--lon", "11.5755", "--label", "Home"])
    let page = vital.root + "/doctor.html"
    let wrote = try vital.run(["report", "--out", page])
    #expect(wrote.stdout == "wrote the report for 27 Nov 2025 to 26 Nov 2026 to \(page)\n", "\(wrote.stdout)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("written by Vital on Thursday 26 November 2026 at 09:00"))
    #expect(!html.contains("2026-11-26T09:00"))
    #expect(html.contains("<th>Last period</th><td>31 Oct 2026 to 4 Nov 2026 (5 days)</td>"))
    #expect(html.contains("now 10 mg, ends 6 Dec 2026"), "a taper as where it stands: its last dose on 6 Dec")
    #expect(html.contains("<td>München</td><td>54.6</td>"), "the place's district and incidence")
    #expect(html.contains("15 Oct 2020 (2233 days old)") && html.contains("the phase may have changed since"))
    let seen = try check(page)
    let charts = try #require(seen["charts"] as? [String: [String: Any]])
    let temperature = try #require(charts["temperature"], "the charted cycle under way")
    #expect(temperature["shapes"] as? Int == 21, "20 temperatures and their line")
    #expect((temperature["label"] as? String)?.contains("cover line of 36.50 °C") == true, "\(temperature)")
    #expect(html.contains("shift, day 15"))
  }

  @Test func anEmptyHomeSaysSoInEverySectionAndDrawsNoEmptyAxes() throws {
    let page = vital.root + "/empty.html"
    try ok(["report", "--out", page])
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("May donate again: <strong>not known: the profile has no"), "not 'now' without a profile")
    let seen = try check(page)
    #expect((seen["console"] as? [Any])?.isEmpty == true)
    #expect((seen["charts"] as? [String: Any])?.isEmpty == true)
    let sections = try #require(seen["sections"] as? [String: [String: Any]])
    for id in ["donations", "cycle", "medications", "steps", "body", "places"] {
      #expect(sections[id]?["empty"] as? Bool == true, "\(id) says it has nothing")
    }
    #expect(seen["pages"] as? Int == 1)
    let pdf = vital.root + "/empty.pdf"
    try ok(["report", "--pdf", "--out", pdf])
    #expect(try Self.pdfPages(pdf) == 1)
  }

  /// Sleep per night, weight, resting heart rate and blood pressure from a generated export, as
  /// charts a browser draws with no error, each mark titled.
  @Test func sleepAndVitalsAreCharts() throws {
    let export = vital.root + "/body.xml"
    try HealthTotalsCLITests.generate(
      export, ["--sources", "watch,phone", "--start", "2026-10-20", "--days", "33", "--vitals", "--sleep"])
    try ok(["health", "import", export])
    let page = vital.root + "/body.html"
    try ok(["report", "--out", page])
    let seen = try check(page)
    #expect((seen["console"] as? [Any])?.isEmpty == true)
    let charts = try #require(seen["charts"] as? [String: [String: Any]])
    let nights = try #require(try vital.run(["health", "sleep", "--days", "30", "--json"]).json as? [[String: Any]])
    let slept = nights.filter { !($0["asleep_s"] is NSNull) }.count
    #expect(charts["sleep"]?["shapes"] as? Int == slept, "a bar asleep per night that has sleep")
    // Each night said once to a screen reader (its two bars shared one title each).
    let titles = try #require(charts["sleep"]?["titles"] as? [String])
    #expect(titles.count == 30 && Set(titles).count == 30, "\(titles)")
    for name in ["weight", "resting-heart-rate", "blood-pressure"] {
      #expect((charts[name]?["shapes"] as? Int ?? 0) > 20, "\(name): \(charts[name] ?? [:])")
    }
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("nights with sleep recorded") && html.contains("mmHg"))
    // Every vital measured, not only the four drawn, and the nights' stages.
    for label in ["Heart rate", "Heart rate variability (SDNN)", "Blood oxygen", "Respiratory rate", "Weight"] {
      #expect(html.contains("<td>\(label)</td>"), "\(label) in the measurements")
    }
    #expect(html.contains("systolic ") && html.contains("with sleep stages: asleep"), "stages and pressure ranges")
    let staged = nights.filter { n in ["core_s", "deep_s", "rem_s"].contains { (n[$0] as? Int ?? 0) > 0 } }.count
    #expect(html.contains("On the \(staged) nights with sleep stages"), "a phone's plain asleep is no stage")
  }

  /// A chart left out of the section is named, so the reader does not take it for no sleep at all
  /// or a page cut short.
  @Test func aMissingBodyChartIsNamed() throws {
    let export = vital.root + "/vitals.xml"
    try HealthTotalsCLITests.generate(
      export, ["--sources", "watch,phone", "--start", "2026-10-20", "--days", "20", "--vitals"])
    try ok(["health", "import", export])
    let page = vital.root + "/vitals.html"
    try ok(["report", "--out", page])
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("mmHg"), "the vitals are drawn")
    #expect(html.contains("Not recorded: sleep in the 30 nights up to"), "the sleep chart's absence is said")
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
