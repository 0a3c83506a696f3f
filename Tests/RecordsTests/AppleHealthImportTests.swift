import Foundation
import Storage
import Testing

@testable import Interchange
@testable import Records

@Suite struct AppleHealthImportTests {
  let t: TestAccount
  let folder: String

  init() throws {
    t = try TestAccount(zone: "America/Los_Angeles", onDisk: true)
    var template = Array((NSTemporaryDirectory() + "/vital-health-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
  }

  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/apple-health").path

  func importer() -> AppleHealthImport {
    AppleHealthImport(db: t.db, accountID: t.account.id, now: Date(), batchSize: 3)
  }

  func file(_ name: String, _ text: String) -> String {
    let path = folder + "/" + name
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    return path
  }

  func count(_ table: String) throws -> Int { try t.db.scalar(Int.self, "SELECT count(*) FROM \(table)") ?? 0 }

  @Test func bothFixtureExportsAndTheZipImportOnce() throws {
    let first = try importer().run(path: Self.fixtures + "/healthkit-to-sqlite-export.xml")
    #expect(first.records == 5)
    #expect(first.inserted == 5)
    #expect(
      first.byType == [
        "HKQuantityTypeIdentifierBodyMassIndex": 1, "HKQuantityTypeIdentifierHeartRate": 1,
        "HKWorkoutActivityTypeRunning": 1, "ActivitySummary": 2,
      ])
    let zip = try importer().run(path: Self.fixtures + "/ios17-export.zip")
    #expect(
      zip.byType == [
        "HKQuantityTypeIdentifierHeartRate": 2, "HKQuantityTypeIdentifierActiveEnergyBurned": 2,
        "HKQuantityTypeIdentifierAppleExerciseTime": 1, "HKQuantityTypeIdentifierAppleStandTime": 1,
        "HKCategoryTypeIdentifierSleepAnalysis": 2,
      ])
    #expect(zip.inserted == 8)
    // The same data again, as XML and as zip: nothing new.
    let again = try importer().run(path: Self.fixtures + "/ios17-export.xml")
    #expect(again.inserted == 0 && again.duplicates == 8)
    #expect(try importer().run(path: Self.fixtures + "/healthkit-to-sqlite-export.xml").inserted == 0)
    #expect(try count("health_sample") == 10)
    #expect(try count("workout") == 1)
    #expect(try count("activity_summary") == 2)

    let run = try t.db.queryFirst(
      "SELECT duration_s, distance_m, energy_kcal FROM workout"
    ) { (try $0.get(0, as: Double.self), try $0.get(1, as: Double.self), try $0.get(2, as: Double.self)) }
    #expect(abs(run!.0 - 311.647) < 0.01, "5.194 min")
    #expect(abs(run!.1 - 800.13) < 0.01, "0.497 mi in metres")
    #expect(abs(run!.2 - 48.745) < 0.001)
  }

  @Test func aRecordInsideACorrelationIsNotCountedTwice() throws {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE HealthData [
      <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
      <!ATTLIST Record type CDATA #REQUIRED unit CDATA #IMPLIED value CDATA #IMPLIED>
      ]>
      <HealthData locale="en_US">
       <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" unit="mmHg" sourceName="Cuff" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="120"/>
       <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" unit="mmHg" sourceName="Cuff" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="80"/>
       <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100">
        <MetadataEntry key="HKWasUserEntered" value="1"/>
        <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" unit="mmHg" sourceName="Cuff" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="120"/>
        <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" unit="mmHg" sourceName="Cuff" startDate="2024-02-01 08:00:00 +0100" endDate="2024-02-01 08:00:00 +0100" value="80"/>
       </Correlation>
      </HealthData>
      """
    let summary = try importer().run(path: file("export.xml", xml))
    // The halves at the top level, and the correlation itself as one reading (issue 44): the
    // halves inside it are not counted again.
    #expect(summary.records == 3)
    #expect(summary.inCorrelations == 2)
    #expect(try count("health_sample") == 3)
    #expect(
      try t.db.scalar(
        String.self, "SELECT value FROM health_sample WHERE type = 'HKCorrelationTypeIdentifierBloodPressure'")
        == "120/80")
  }

  @Test func aTruncatedFileKeepsWhatCameBeforeAndSaysWhere() throws {
    var xml = "<HealthData>\n"
    for i in 0..<7 {
      xml +=
        "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" startDate=\"2024-01-0\(i + 1) 10:00:00 +0000\" endDate=\"2024-01-0\(i + 1) 10:05:00 +0000\" value=\"\(100 + i)\"/>\n"
    }
    xml += "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"cou"
    #expect(
      throws: HealthImportError.malformed(
        "export.xml", line: 9, column: 59, reason: "Couldn't find end of Start Tag Record", kept: 7)
    ) { try importer().run(path: file("export.xml", xml)) }
    #expect(try count("health_sample") == 7)
    // The outbox knows every kept record: they sync like everything else.
    #expect(try t.db.scalar(Int.self, "SELECT count(*) FROM sync_outbox WHERE field = '*'") == 7)
  }

  @Test func filesThatAreNotExportsAreRefusedCleanly() throws {
    #expect(throws: HealthImportError.empty("empty.xml")) { try importer().run(path: file("empty.xml", "")) }
    #expect(throws: HealthImportError.notAnExport("other.xml", root: "rss")) {
      try importer().run(path: file("other.xml", "<rss><channel/></rss>"))
    }
    #expect(throws: HealthImportError.self) { try importer().run(path: file("photo.xml", "GIF89a not xml at all")) }
    let broken = #expect(throws: HealthImportError.self) {
      try importer().run(path: file("broken.zip", "PK\u{3}\u{4} and then nothing a zip needs"))
    }
    if case .unreadableZip("broken.zip", _) = broken {} else { Issue.record("\(String(describing: broken))") }
    #expect(try count("health_sample") == 0)
  }

  @Test func aZipWithoutAnExportIsRefused() throws {
    let zip = folder + "/no-export.zip"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      "-c",
      "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],'w'); z.writestr('apple_health_export/export_cda.xml','<x/>'); z.close()",
      zip,
    ]
    try process.run()
    process.waitUntilExit()
    #expect(throws: HealthImportError.noExportInZip("no-export.zip")) { try importer().run(path: zip) }
  }

  @Test func aDayExportedAgainLaterUpdatesItsActivitySummary() throws {
    func export(_ steps: Int, _ kcal: Double) -> String {
      """
      <HealthData>
      <Record type="HKQuantityTypeIdentifierStepCount" unit="count" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 09:10:00 +0100" value="\(steps)"/>
      <ActivitySummary dateComponents="2024-03-01" activeEnergyBurned="\(kcal)" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal"/>
      </HealthData>
      """
    }
    _ = try importer().run(path: file("morning.xml", export(100, 120)))
    let evening = try importer().run(path: file("evening.xml", export(100, 480)))
    #expect(evening.updated == 1)
    #expect(evening.duplicates == 1, "the step sample is the same")
    #expect(try t.db.scalar(Double.self, "SELECT move_kcal FROM activity_summary") == 480)
    let again = try importer().run(path: file("evening.xml", export(100, 480)))
    #expect(again.updated == 0 && again.duplicates == 2)
  }

  @Test func datesParseWithTheirOffsets() {
    #expect(HealthDate.parse("2024-01-01 01:01:36 +0200") == ISO8601.date(from: "2023-12-31T23:01:36Z"))
    #expect(HealthDate.parse("2016-11-14 07:25:41 -0700") == ISO8601.date(from: "2016-11-14T14:25:41Z"))
    #expect(HealthDate.parse("2024-02-30 01:01:36 +0200") == nil)
    #expect(HealthDate.parse("2024-01-01 01:01:36") == nil)
    #expect(HealthDate.parse("2024-01-01T01:01:36 +0200") == nil)
  }
}
