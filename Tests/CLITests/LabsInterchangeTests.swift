import Foundation
import Testing

/// Lab results where they meet the rest of a record: a donation's measurements in the same list
/// and trend, a scale's and a watch's readings beside a weight by hand, a spreadsheet in, a FHIR
/// bundle out and back, and the report's table and small charts.
@Suite struct LabsInterchangeTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-27T10:00:00Z"
    try ExportImportTests.register(vital, "labs@example.org")
  }

  func ok(_ arguments: [String], stdin: String? = nil) throws -> Run {
    let run = try vital.run(arguments, stdin: stdin)
    #expect(run.status == 0, "\(arguments): \(run.stderr)")
    return run
  }

  func listed(_ home: VitalHome? = nil) throws -> [[String: Any]] {
    let run = try (home ?? vital).run(["labs", "list", "--json"])
    return try #require(run.json as? [[String: Any]], "\(run.stderr)")
  }

  @Test func aDonationsMeasurementsSitInTheListAndTrendAndStayTheDonations() throws {
    try _ = ok(["donor", "add", "--at", "2026-03-01T10:00", "--place", "DRK Mitte", "--hb", "13.1", "--ferritin", "22"])
    try _ = ok(["donor", "add", "--at", "2026-06-01T10:00", "--place", "DRK Mitte", "--bp", "128/80", "--pulse", "70"])
    let csv = vital.root + "/before.csv"
    try _ = ok(["donor", "export", "--out", csv])
    try _ = ok(["labs", "add", "hb", "14.2", "g/dL", "--at", "2026-09-01", "--lab", "GP"])

    let results = try listed()
    #expect(results.count == 5, "hb, ferritin, bp and pulse from the donations, hb from the GP: \(results)")
    let fromDonation = try #require(results.first { $0["test"] as? String == "hb" && $0["donation_id"] is String })
    #expect(fromDonation["at"] as? String == "2026-03-01T10:00:00+01:00", "the donation's time")
    #expect(fromDonation["value"] as? Double == 13.1 && fromDonation["lab"] as? String == "DRK Mitte")
    let bp = try #require(results.first { $0["test"] as? String == "blood-pressure" })
    #expect(bp["value"] as? Double == 128 && bp["second"] as? Double == 80)
    let trend = try #require(try ok(["labs", "trend", "hb", "--json"]).object?["results"] as? [[String: Any]])
    #expect(trend.map { $0["value"] as? Double } == [13.1, 14.2], "a donation's Hb and a GP's in one trend")
    let text = try ok(["labs", "list"]).stdout
    #expect(text.contains("donation, DRK Mitte") && text.contains("hb."), "\(text)")

    // Shown by its id; changed only with its donation; the donor CSV is the same bytes.
    let id = try #require(fromDonation["id"] as? String)
    let short = "hb." + String(try #require(fromDonation["donation_id"] as? String).prefix(6))
    #expect(try ok(["labs", "show", short, "--json"]).object?["id"] as? String == id)
    let donation = String(try #require(fromDonation["donation_id"] as? String).prefix(6))
    expectCleanError(try vital.run(["labs", "delete", short]), mentioning: "vital donor edit \(donation) --hb ''")
    expectCleanError(
      try vital.run(["labs", "edit", "pulse." + donation, "--value", "72"]),
      mentioning: "donor edit \(donation) --pulse 72")
    // A spreadsheet row of the same figure is the donation's, already here.
    let again = try #require(
      try ok(["labs", "import", "-", "--json"], stdin: "test,value,unit,at\nhb,13.1,g/dL,2026-03-01 10:00\n").object)
    #expect(again["unchanged"] as? Int == 1 && again["inserted"] as? Int == 0, "\(again)")
    // Ferritin's units are one number: none is needed.
    #expect(try ok(["labs", "add", "ferritin", "30", "--at", "2026-10-01"]).status == 0)
    try _ = ok([
      "labs", "delete",
      String(try #require(try listed().first { $0["value"] as? Double == 30 }?["id"] as? String).prefix(8)), "--yes",
    ])
    let after = vital.root + "/after.csv"
    try _ = ok(["donor", "export", "--out", after])
    #expect(try Data(contentsOf: URL(fileURLWithPath: csv)) == Data(contentsOf: URL(fileURLWithPath: after)))
    #expect(try listed().count == 5, "nothing deleted")
  }

  /// A scale in kilograms and an old app in pounds on one morning, the scale alone the next; a
  /// weight by hand between them.
  static let weights = """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_DE">
     <ExportDate value="2026-11-22 09:00:00 +0100"/>
     <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2026-11-20 07:00:00 +0100" endDate="2026-11-20 07:00:00 +0100" value="62.4"/>
     <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Old app" unit="lb" startDate="2026-11-20 19:00:00 +0100" endDate="2026-11-20 19:00:00 +0100" value="138"/>
     <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2026-11-22 07:00:00 +0100" endDate="2026-11-22 07:00:00 +0100" value="62.0"/>
    </HealthData>
    """

  @Test func aWeightByHandMeetsTheImportedOnesInOneTrendWithTheirSources() throws {
    let xml = vital.root + "/weights.xml"
    try Self.weights.write(toFile: xml, atomically: true, encoding: .utf8)
    try _ = ok(["health", "import", xml])
    try _ = ok(["labs", "add", "weight", "138", "lb", "--at", "2026-11-21 08:00"])
    let trend = try #require(try ok(["labs", "trend", "weight", "--json"]).object)
    let points = try #require(trend["results"] as? [[String: Any]])
    #expect(points.count == 3, "\(points)")
    #expect(points.map { $0["day"] as? String } == ["2026-11-20", nil, "2026-11-22"])
    // 62.4 kg and 138 lb (62.596 kg): the day's mean, and both sources named.
    #expect(abs((points[0]["value"] as? Double ?? 0) - 62.498) < 0.001, "\(points[0])")
    #expect(points[0]["sources"] as? [String] == ["Old app", "Scale"] && points[0]["readings"] as? Int == 2)
    #expect(abs((points[1]["value"] as? Double ?? 0) - 62.596) < 0.001 && points[1]["id"] is String)
    let text = try ok(["labs", "trend", "weight"]).stdout
    #expect(text.contains("Old app, Scale (mean of 2)") && text.contains("○") && text.contains("●"), "\(text)")
    // A lab test has no imported readings; a measurement without any has only its results.
    #expect(try ok(["labs", "trend", "pulse", "--json"]).object.map { ($0["results"] as? [Any])?.count } == 0)
  }

  @Test func aSpreadsheetOfResultsIsReadAsAddReadsItsArgumentsAndOnlyOnce() throws {
    let csv = vital.root + "/results.csv"
    try #"""
    test,value,unit,at,lab,range
    ferritin,35,ng/mL,2026-11-20,City Lab,15-150
    Glucose,99,mg/dL,2026-11-20 08:10,,
    bp,128/82,,2026-11-21T07:00,,
    hb,8.6,mmol/L,2026-11-21T07:00+01:00,"Lab, ""North""",
    """#.write(toFile: csv, atomically: true, encoding: .utf8)
    let first = try #require(try ok(["labs", "import", csv, "--json"]).object)
    #expect(first["inserted"] as? Int == 4 && first["rows"] as? Int == 4)
    let second = try #require(try ok(["labs", "import", csv, "--json"]).object)
    #expect(second["inserted"] as? Int == 0 && second["unchanged"] as? Int == 4, "a file imported twice adds nothing")
    let results = try listed()
    let glucose = try #require(results.first { $0["test"] as? String == "glucose" })
    #expect(
      abs((glucose["value"] as? Double ?? 0) - 5.4953) < 0.001
        && glucose["at"] as? String == "2026-11-20T08:10:00+01:00")
    let ferritin = try #require(results.first { $0["test"] as? String == "ferritin" })
    #expect((ferritin["range"] as? [String: Any])?["source"] as? String == "laboratory")
    let hb = try #require(results.first { $0["test"] as? String == "hb" })
    #expect(hb["lab"] as? String == "Lab, \"North\"" && abs((hb["value"] as? Double ?? 0) - 13.858) < 0.001)
  }

  @Test(arguments: [
    ("test,value,unit,at\nglucose,5.2,,2026-11-20\n", "line 2: glucose comes in several units"),
    ("test,value,unit,at\nferriten,35,ng/mL,2026-11-20\n", "line 2: no test 'ferriten'"),
    ("test,value,unit,at\nglucose,5.2,kg,2026-11-20\n", "line 2: 'kg' is not a unit of glucose"),
    ("test,value,unit,at\nferritin,nan,ng/mL,2026-11-20\n", "line 2: 'nan' is not a value"),
    ("test,value,unit,at\nferritin,1e400,ng/mL,2026-11-20\n", "line 2: '1e400' is not a value"),
    ("test,value,unit,at\nferritin,-5,ng/mL,2026-11-20\n", "line 2: '-5' is not a value"),
    ("test,value,unit,at\nferritin,35000,ng/mL,2026-11-20\n", "--force"),
    ("test,value,unit,at\nferritin,35,ng/mL,2026-11-20\nferritin,35,ng/mL,20.11.2026\n", "line 3: '20.11.2026'"),
    ("test,value,unit,at\nferritin,35,ng/mL\n", "line 2: 3 columns"),
    ("test,value,unit,at\nferritin,35,ng/mL,2027-01-01\n", "line 2: 2027-01-01 is still to come"),
    ("test,value,unit,at,range\nferritin,35,ng/mL,2026-11-20,150-15\n", "line 2: range '150-15'"),
    ("test,value,at,unit\nferritin,35,2026-11-20,ng/mL\n", "line 1: the first four columns"),
    ("test,value,unit,at,doctor\n", "column 'doctor'"),
    ("test,value,unit,at\nferritin,\"35,ng/mL,2026-11-20\n", "never closed"),
    ("", "the file is empty"),
  ])
  func aBadRowRefusesTheWholeFile(csv: String, message: String) throws {
    let good = "ferritin,40,ng/mL,2026-11-01\n"
    let text = csv.hasPrefix("test,value,unit,at\n") ? csv.replacingOccurrences(of: "at\n", with: "at\n" + good) : csv
    let expected =
      csv.hasPrefix("test,value,unit,at\n")
      ? message.replacingOccurrences(of: "line 2", with: "line 3")
        .replacingOccurrences(of: "line 3: '20.11", with: "line 4: '20.11") : message
    expectCleanError(try vital.run(["labs", "import", "-"], stdin: text), mentioning: expected)
    #expect(try listed().isEmpty, "nothing written, not even the good row before it")
  }

  @Test func everyResultIsAFHIRObservationAsTheCatalogueSaysAndComesBack() throws {
    try _ = ok(["profile", "set", "--sex", "female"])
    try _ = ok([
      "labs", "add", "ferritin", "12", "ug/L", "--at", "2026-11-20", "--lab", "City Lab", "--range", "20-250",
    ])
    try _ = ok(["labs", "add", "glucose", "99", "mg/dL", "--at", "2026-11-20 08:10", "--note", "fasting"])
    try _ = ok(["labs", "add", "bp", "145/85", "--at", "2026-11-21 07:00"])
    try _ = ok(["labs", "add", "weight", "62.5", "kg", "--at", "2026-11-21 07:05"])
    try _ = ok(["donor", "add", "--at", "2026-03-01T10:00", "--place", "DRK Mitte", "--hb", "13.1"])
    let path = vital.root + "/bundle.json"
    try _ = ok(["export", "--format", "fhir", "--out", path])
    _ = try runChecker("check-fhir", [path])
    let bundle = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    let labs = FHIRExportTests.resources(bundle, "Observation").filter {
      (($0["identifier"] as? [[String: Any]])?.first?["system"] as? String) == "urn:vital:lab-result"
    }
    #expect(labs.count == 4, "the donation's Hb goes with the donation, not twice")
    // A result of a day (from a letter) is that date, not an instant a reader in UTC would
    // put on the day before; one with a time is the instant.
    let dates = Set(labs.compactMap { $0["effectiveDateTime"] as? String })
    #expect(dates.contains("2026-11-20") && dates.contains("2026-11-20T07:10:00.000Z"), "\(dates)")
    let catalogue = try #require(try ok(["labs", "tests", "--json"]).json as? [[String: Any]])
    for observation in labs {
      let code = try #require(FHIRExportTests.loinc(observation))
      let test = try #require(catalogue.first { $0["loinc"] as? String == code }, "\(code) is the catalogue's")
      let quantities =
        [observation["valueQuantity"]]
        + ((observation["component"] as? [[String: Any]]) ?? []).map { $0["valueQuantity"] }
      for case let quantity as [String: Any] in quantities {
        #expect(
          quantity["code"] as? String == test["unit"] as? String
            && quantity["system"] as? String == "http://unitsofmeasure.org")
      }
      let interpretation = (observation["interpretation"] as? [[String: Any]])?.first
      let flag = ((interpretation?["coding"] as? [[String: Any]])?.first?["code"] as? String)
      switch code {
      case "2276-4":
        let range = try #require((observation["referenceRange"] as? [[String: Any]])?.first)
        #expect((range["low"] as? [String: Any])?["value"] as? Double == 20 && range["text"] as? String == "laboratory")
        #expect(
          flag == "L" && (observation["performer"] as? [[String: Any]])?.first?["display"] as? String == "City Lab")
      case "14771-0":
        // The catalogue's range for a woman, marked as the default it is.
        let range = try #require((observation["referenceRange"] as? [[String: Any]])?.first)
        let ranges = try #require(test["ranges"] as? [[String: Any]])
        #expect((range["high"] as? [String: Any])?["value"] as? Double == ranges.first?["high"] as? Double)
        #expect((range["text"] as? String)?.hasPrefix("default adult range") == true && flag == "N")
      case "85354-9":
        #expect((observation["component"] as? [Any])?.count == 2 && flag == "H")
      default:
        #expect(code == "29463-7", "weight: \(observation)")
      }
    }

    // Into a new home: the same results, the laboratory's range kept as the laboratory's.
    let other = try VitalHome()
    other.environment["VITAL_NOW"] = vital.environment["VITAL_NOW"]
    try ExportImportTests.register(other, "other@example.org")
    #expect(try other.run(["import", path]).status == 0)
    #expect(try other.run(["import", path]).status == 0, "twice adds nothing")
    let strip = { (rows: [[String: Any]]) in
      rows.map { r in
        ["test", "value", "second", "at", "lab", "note"].map { "\(r[$0] ?? "nil")" }
          + ["low", "high", "source"].map { "\((r["range"] as? [String: Any])?[$0] ?? "nil")" }
      }
    }
    #expect(strip(try listed(other)) == strip(try listed()))
  }

  @Test func theReportHasATableOfTheLatestResultsAndASmallChartOfEach() throws {
    try _ = ok(["profile", "set", "--sex", "female"])
    for (year, ferritin) in [(2023, "28"), (2024, "12"), (2025, "45")] {
      try _ = ok(["labs", "add", "ferritin", ferritin, "ng/mL", "--at", "\(year)-05-10", "--lab", "City Lab"])
    }
    try _ = ok(["labs", "add", "cholesterol", "232", "mg/dL", "--at", "2026-05-10"])
    try _ = ok(["donor", "add", "--at", "2026-09-01T10:00", "--place", "DRK Mitte", "--hb", "11.8"])
    let page = vital.root + "/report.html"
    try _ = ok(["report", "--out", page])
    let html = try String(contentsOfFile: page, encoding: .utf8)
    let section = try #require(html.firstRange(of: "<section id=\"labs\">").map { String(html[$0.lowerBound...]) })
      .components(separatedBy: "</section>")[0]
    #expect(section.components(separatedBy: "class=\"lab-trend\"").count - 1 == 3, "one chart per test")
    #expect(
      section.contains(
        "aria-label=\"Ferritin: 3 results from 10 May 2023 to 10 May 2025, 12 to 45 ng/mL, 1 outside the range\""),
      "\(section)")
    #expect(section.contains("6.0 mmol/L <strong class=\"flag\""), "cholesterol 232 mg/dL is high: \(section)")
    #expect(section.contains("donation, DRK Mitte"))
    #expect(
      section.components(separatedBy: "lab-point out").count - 1 == 3, "ferritin 12, cholesterol and Hb 11.8 in red")
    let shot = ReportTests.root.appendingPathComponent(".build/test-screenshots/labs-report.png")
    try FileManager.default.createDirectory(at: shot.deletingLastPathComponent(), withIntermediateDirectories: true)
    let seen = try #require(
      try JSONSerialization.jsonObject(with: runChecker("check-report", [page, shot.path])) as? [String: Any])
    #expect((seen["console"] as? [Any])?.isEmpty == true)
    let labs = try #require((seen["sections"] as? [String: [String: Any]])?["labs"])
    #expect(labs["empty"] as? Bool == false && (labs["height"] as? Double ?? 0) > 100, "\(labs)")
  }
}
