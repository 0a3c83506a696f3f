import Foundation
import Testing

/// `vital export --format fhir`: a FHIR R4 bundle that a real FHIR library reads with no error,
/// whose references resolve, with the codes and units docs/fhir.md promises; and read back.
@Suite struct FHIRExportTests {
  let vital: VitalHome

  /// Two days of activity from an iPhone and an Apple Watch worn together (the same walk counted
  /// by both), weighed in kilograms and in pounds, and a pulse: what a real export holds.
  static let activity = """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_DE">
     <ExportDate value="2026-11-22 09:00:00 +0100"/>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna's iPhone" unit="count" startDate="2026-11-20 08:00:00 +0100" endDate="2026-11-20 09:00:00 +0100" value="3000"/>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna's Apple Watch" unit="count" startDate="2026-11-20 08:00:00 +0100" endDate="2026-11-20 09:00:00 +0100" value="3200"/>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna's iPhone" unit="count" startDate="2026-11-21 23:30:00 +0100" endDate="2026-11-22 00:30:00 +0100" value="1000"/>
     <Record type="HKQuantityTypeIdentifierDistanceWalkingRunning" sourceName="Anna's Apple Watch" unit="km" startDate="2026-11-20 08:00:00 +0100" endDate="2026-11-20 09:00:00 +0100" value="2.4"/>
     <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2026-11-20 07:00:00 +0100" endDate="2026-11-20 07:00:00 +0100" value="62.4"/>
     <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Old app" unit="lb" startDate="2026-11-20 19:00:00 +0100" endDate="2026-11-20 19:00:00 +0100" value="138"/>
     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Anna's Apple Watch" unit="count/min" startDate="2026-11-20 08:30:00 +0100" endDate="2026-11-20 08:30:00 +0100" value="92"/>
    </HealthData>
    """

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-22T09:00:00Z"
    try ExportImportTests.register(vital, "anna@example.org")
    try ExportImportTests.fillEveryKind(vital)
    let xml = vital.root + "/activity.xml"
    try Self.activity.write(toFile: xml, atomically: true, encoding: .utf8)
    try ExportImportTests.ok(vital, ["health", "import", xml])
    // The next day's dose skipped, the day after's missed.
    vital.environment["VITAL_NOW"] = "2026-11-23T09:45:00Z"
    try ExportImportTests.ok(vital, ["meds", "skip", "ramipril"])
    vital.environment["VITAL_NOW"] = "2026-11-25T12:00:00Z"
  }

  func bundle(_ home: VitalHome, _ options: [String] = []) throws -> (path: String, json: [String: Any]) {
    let path = home.root + "/bundle-\(UUID().uuidString).json"
    let run = try home.run(["export", "--format", "fhir", "--out", path] + options)
    try #require(run.status == 0, "\(run.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
    return (path, try #require(json as? [String: Any]))
  }

  static func resources(_ bundle: [String: Any], _ type: String) -> [[String: Any]] {
    (bundle["entry"] as? [[String: Any]] ?? []).compactMap { $0["resource"] as? [String: Any] }
      .filter { $0["resourceType"] as? String == type }
  }

  static func loinc(_ resource: [String: Any]) -> String? {
    ((resource["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String
  }

  @Test func theBundleValidatesWithRealFHIRModelsAndCarriesTheCodesAndUnits() throws {
    let (path, json) = try bundle(vital)
    let checked = try #require(
      try JSONSerialization.jsonObject(with: runChecker("check-fhir", [path])) as? [String: Any])
    let types = try #require(checked["types"] as? [String: Int])
    #expect(types["Patient"] == 1 && types["Procedure"] == 2, "\(types)")
    #expect(types["Medication"] == 1 && types["MedicationStatement"] == 1)
    #expect(types["MedicationAdministration"] == 3, "taken, skipped, missed: \(types)")
    let codes = try #require(checked["codes"] as? [String: String])
    for code in ["718-7", "2276-4", "8480-6", "8462-4", "41950-7", "41953-1", "29463-7", "8867-4"] {
      #expect(codes[code] != nil, "\(code) in \(codes)")
    }

    #expect(json["type"] as? String == "collection")
    let patient = try #require(Self.resources(json, "Patient").first)
    #expect(patient["gender"] as? String == "female" && patient["birthDate"] as? String == "1990-04-01")
    #expect(patient["telecom"] == nil, "no email without --with-contact")
    #expect(!String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).contains("anna@"))

    let procedures = Self.resources(json, "Procedure")
    let kinds = procedures.compactMap {
      ((($0["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String)
    }
    #expect(kinds == ["WBL", "WBL"])
    #expect(
      procedures.first.flatMap { ($0["location"] as? [String: Any])?["display"] as? String } == "DRK \"Mitte\", Berlin")

    // Steps counted once across the phone and the watch (the watch's 3200, not 6200); the walk
    // across midnight split between the days; weight the mean of 62.4 kg and 138 lb (62.6 kg).
    let observations = Self.resources(json, "Observation")
    func daily(_ code: String, _ day: String) -> Double? {
      observations.first {
        Self.loinc($0) == code
          && (($0["effectivePeriod"] as? [String: Any])?["start"] as? String)?.hasPrefix(day) == true
      }.flatMap { (($0["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue }
    }
    #expect(daily("41950-7", "2026-11-20") == 3200)
    #expect(daily("41950-7", "2026-11-21") == 500 && daily("41950-7", "2026-11-22") == 500)
    #expect(daily("41953-1", "2026-11-20") == 2400)
    #expect(daily("29463-7", "2026-11-20") == 62.5)
    let skipped = Self.resources(json, "MedicationAdministration").filter { $0["status"] as? String == "not-done" }
    #expect(
      Set(skipped.compactMap { (($0["statusReason"] as? [[String: Any]])?.first?["text"] as? String) })
        == ["skipped", "missed"])
  }

  @Test func withContactAndSinceNarrowOrWidenTheBundle() throws {
    let (path, json) = try bundle(vital, ["--with-contact", "--since", "2026-07-01"])
    _ = try runChecker("check-fhir", [path])
    let patient = try #require(Self.resources(json, "Patient").first)
    #expect((patient["telecom"] as? [[String: Any]])?.first?["value"] as? String == "anna@example.org")
    #expect(Self.resources(json, "Procedure").count == 1, "the March donation is before --since")
    #expect(Self.resources(json, "MedicationStatement").count == 1, "medications are listed whatever their date")
    #expect(try vital.run(["export", "--since", "2026-07-01"]).status == 64, "--since goes with --format fhir")
    #expect(try vital.run(["export", "--format", "fhir", "--since", "July"]).status == 64)
  }

  @Test func aBundleComesBackWithoutDuplicates() throws {
    let (path, first) = try bundle(vital)
    let same = try vital.run(["import", path, "--json"])
    #expect(same.status == 0, "\(same.stderr)")
    #expect(same.object?["inserted"] as? Int == 0 && same.object?["updated"] as? Int == 0, "\(same.stdout)")

    let fresh = try VitalHome()
    fresh.environment = vital.environment
    try ExportImportTests.register(fresh, "anna@example.org")
    let run = try fresh.run(["import", path, "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect((run.object?["skipped"] as? Int ?? 0) > 0, "daily totals and the missed dose are not records")
    let again = try fresh.run(["import", path, "--json"])
    #expect(again.object?["inserted"] as? Int == 0 && again.object?["updated"] as? Int == 0, "\(again.stdout)")
    // The fresh home's bundle holds the same donations, measurements, periods, medication and
    // recorded doses (not the daily totals: no samples came along).
    let (_, second) = try bundle(fresh)
    for type in ["Procedure", "Medication", "MedicationStatement", "MedicationAdministration"] {
      #expect(
        NSArray(array: Self.resources(first, type)) == NSArray(array: Self.resources(second, type)), "\(type)")
    }
    let vitals = { (b: [String: Any]) in Self.resources(b, "Observation").filter { $0["partOf"] != nil }.count }
    #expect(vitals(first) == vitals(second) && vitals(first) == 3)
    #expect(try fresh.run(["cycle", "list", "--json"]).json.map { ($0 as? [Any])?.count } == 2)
  }

  @Test func aBrokenBundleIsRefusedWithItsEntryAndNothingIsWritten() throws {
    let (path, _) = try bundle(vital)
    var text = try String(contentsOfFile: path, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "\"performedDateTime\": \"2026-07-01", with: "\"performedDateTime\": \"July 2026")
    let broken = vital.root + "/broken.json"
    try text.write(toFile: broken, atomically: true, encoding: .utf8)
    let fresh = try VitalHome()
    fresh.environment = vital.environment
    try ExportImportTests.register(fresh, "anna@example.org")
    expectCleanError(
      try fresh.run(["import", broken]), mentioning: "bundle entry", "performedDateTime", "nothing was imported")
    #expect(try fresh.run(["donor", "history", "--json"]).json.map { ($0 as? [Any])?.count } == 0)
    #expect(try fresh.run(["cycle", "list", "--json"]).json.map { ($0 as? [Any])?.count } == 0)

    // The bundle streams: a cut, an entry over the budget, a bundle that is not one.
    let whole = try String(contentsOfFile: path, encoding: .utf8)
    let cases = [
      ("cut", String(whole.prefix(whole.count / 2)), "not JSON at byte"),
      (
        "huge",
        #"{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Basic","text":""#
          + String(repeating: "a", count: 17 << 20) + #""}}]}"#, "bundle entry 0: it is over 16 MiB"
      ),
      ("patient", #"{"resourceType":"Patient","entry":[{"resource":{"resourceType":"Basic"}}]}"#, "nor a FHIR bundle"),
    ]
    for (name, text, words) in cases {
      let file = vital.root + "/\(name).json"
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      expectCleanError(try fresh.run(["import", file]), mentioning: words, "nothing was imported")
    }
    #expect(try fresh.run(["donor", "history", "--json"]).json.map { ($0 as? [Any])?.count } == 0)
  }

  /// Haemoglobin from another program may be in mmol/L or g/L: converted to g/dL. A unit Vital
  /// does not convert, or no number, refuses the bundle instead of storing a wrong figure.
  @Test func measurementsInOtherUnitsAreConvertedOrRefused() throws {
    let (path, _) = try bundle(vital)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    func withHaemoglobin(_ quantity: [String: Any]) throws -> String {
      var copy = object
      copy["entry"] = (object["entry"] as? [[String: Any]] ?? []).map { entry in
        guard var resource = entry["resource"] as? [String: Any], resource["partOf"] != nil,
          (resource["code"] as? [String: Any]).map({ "\($0)".contains("718-7") }) == true
        else { return entry }
        resource["valueQuantity"] = quantity
        return entry.merging(["resource": resource]) { $1 }
      }
      let file = vital.root + "/hb-\(UUID().uuidString.prefix(8)).json"
      try JSONSerialization.data(withJSONObject: copy).write(to: URL(fileURLWithPath: file))
      return file
    }
    let fresh = try VitalHome()
    fresh.environment = vital.environment
    try ExportImportTests.register(fresh, "anna@example.org")
    expectCleanError(
      try fresh.run(["import", try withHaemoglobin(["value": 13.5, "unit": "mg", "code": "mg"])]),
      mentioning: "haemoglobin is in 'mg'", "nothing was imported")
    expectCleanError(
      try fresh.run(["import", try withHaemoglobin(["value": "high", "code": "g/dL"])]),
      mentioning: "haemoglobin has no number", "nothing was imported")
    #expect(try fresh.run(["donor", "history", "--json"]).json.map { ($0 as? [Any])?.count } == 0)
    let run = try fresh.run(["import", try withHaemoglobin(["value": 8.4, "unit": "mmol/L", "code": "mmol/L"])])
    #expect(run.status == 0, "\(run.stderr)")
    let history = try #require(try fresh.run(["donor", "history", "--json"]).json as? [[String: Any]])
    let figures = history.compactMap { ($0["vitals"] as? [String: Any])?["hb_g_dl"] as? Double }
    #expect(figures.allSatisfy { $0 == 13.5 } && !figures.isEmpty, "8.4 mmol/L is 13.5 g/dL: \(figures)")
  }

  /// Read twice (the second pass writes), a bundle on stdin is kept in a temporary file: it
  /// imports as the file does, measurements before their donation included.
  @Test func aBundleOnStdinImportsAsTheFileDoes() throws {
    let (path, _) = try bundle(vital)
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    // Measurements first, then what they are part of: the order of another program's bundle.
    let entries = try #require(object["entry"] as? [[String: Any]])
    let isVital = { (e: [String: Any]) in ((e["resource"] as? [String: Any])?["partOf"]) != nil }
    object["entry"] = entries.filter(isVital) + entries.filter { !isVital($0) }
    let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    let fresh = try VitalHome()
    fresh.environment = vital.environment
    try ExportImportTests.register(fresh, "anna@example.org")
    let spool = fresh.root + "/tmp"
    try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
    fresh.environment["TMPDIR"] = spool
    let run = try fresh.run(["import", "-", "--json"], stdin: text)
    #expect(run.status == 0, "\(run.stderr)")
    let (_, second) = try bundle(fresh)
    let (_, first) = try bundle(vital)
    let vitals = { (b: [String: Any]) in Self.resources(b, "Observation").filter { $0["partOf"] != nil }.count }
    #expect(vitals(second) == vitals(first) && vitals(first) == 3)
    #expect(try FileManager.default.contentsOfDirectory(atPath: spool).isEmpty, "the copy is gone")
  }

  /// Sleep, resting heart rate, HRV, oxygen and blood pressure readings from a generated export:
  /// each with its LOINC code and unit, read by the R4B models; a reading per correlation (the
  /// one missing a half is not one), a night per night `vital health sleep` tells.
  @Test func sleepAndVitalsAreObservationsWithTheirCodes() throws {
    let home = try VitalHome()
    home.environment["VITAL_NOW"] = "2026-10-28T20:00:00Z"
    try ExportImportTests.register(home, "body@example.org")
    let file = home.root + "/body.xml"
    try HealthTotalsCLITests.generate(
      file, ["--sources", "watch,phone", "--start", "2026-10-24", "--days", "4", "--vitals", "--sleep"])
    #expect(try home.run(["health", "import", file]).status == 0)
    let path = home.root + "/body-fhir.json"
    #expect(try home.run(["export", "--format", "fhir", "--out", path]).status == 0)
    let checked = try #require(
      try JSONSerialization.jsonObject(with: runChecker("check-fhir", [path])) as? [String: Any])
    let codes = try #require(checked["codes"] as? [String: Any])
    for (code, unit) in ["40443-4": "/min", "80404-7": "ms", "59408-5": "%", "9279-1": "/min", "93832-4": "min"] {
      #expect(codes[code] as? String == unit, "\(code): \(codes[code] ?? "missing")")
    }
    let bundle = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    let observations = ((bundle["entry"] as? [[String: Any]]) ?? []).compactMap { $0["resource"] as? [String: Any] }
      .filter { $0["resourceType"] as? String == "Observation" }
    func count(_ code: String) -> Int {
      observations.filter {
        ((($0["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String) == code
      }
      .count
    }
    let nights = try #require(try home.run(["health", "sleep", "--days", "10", "--json"]).json as? [[String: Any]])
    #expect(count("93832-4") == nights.filter { !($0["asleep_s"] is NSNull) }.count)
    let readings = try #require(
      try home.run(["health", "vitals", "--type", "bp", "--days", "10", "--json"]).json as? [[String: Any]])
    #expect(count("85354-9") == readings.reduce(0) { $0 + ($1["count"] as? Int ?? 0) })
    #expect(count("85354-9") == 7, "two readings a day for four days, one of them missing a half")
  }
}
