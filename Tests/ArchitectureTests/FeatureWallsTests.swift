import Foundation
import Testing

/// The features in Sources/Records share one module, so the compiler does not keep them apart:
/// this test does. A feature reads and writes only the tables it declares, and reaches another
/// feature only through that feature's public API, never by opening its store's tables or by
/// making its store where a value would do (docs/architecture.md, "Records").
@Suite struct FeatureWallsTests {
  static let records = ImportRulesTests.root.appendingPathComponent("Sources/Records")

  /// Each feature folder with its Swift files' text, by path.
  static func features() throws -> [String: [String: String]] {
    let fm = FileManager.default
    var features: [String: [String: String]] = [:]
    for folder in try fm.contentsOfDirectory(atPath: records.path) where folder != "Common" {
      let dir = records.appendingPathComponent(folder)
      var files: [String: String] = [:]
      for case let file as String in fm.enumerator(atPath: dir.path)! where file.hasSuffix(".swift") {
        files["\(folder)/\(file)"] = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
      }
      features[folder] = files
    }
    return features
  }

  static func matches(_ pattern: Regex<(Substring, Substring)>, in text: String) -> Set<String> {
    Set(text.matches(of: pattern).map { String($0.1) })
  }

  /// The tables a SQL statement in `text` names after FROM, JOIN, INTO, UPDATE or TABLE.
  static func tablesNamed(in text: String) -> Set<String> {
    matches(#/\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+"?([a-z_]+)/#, in: text)
  }

  @Test func aFeatureTouchesOnlyItsOwnTables() throws {
    let features = try Self.features()
    var owner: [String: String] = [:]
    for (feature, files) in features {
      for text in files.values {
        for table in Self.matches(#/Table\(\s*"([a-z_]+)"/#, in: text) { owner[table] = feature }
      }
    }
    #expect(owner["donation"] == "Donation" && owner["health_sample"] == "HealthData", "tables were not read: \(owner)")
    for (feature, files) in features {
      for (path, text) in files.sorted(by: { $0.key < $1.key }) {
        for table in Self.tablesNamed(in: text).sorted() where owner[table].map({ $0 != feature }) == true {
          Issue.record("Sources/Records/\(path) uses \(owner[table]!)'s table \(table): ask its store")
        }
      }
    }
  }

  @Test func aFeatureDoesNotMakeAnotherFeaturesStore() throws {
    let features = try Self.features()
    var owner: [String: String] = [:]
    for (feature, files) in features {
      for text in files.values {
        for store in Self.matches(#/public struct (\w+Store)\b/#, in: text) { owner[store] = feature }
      }
    }
    #expect(owner["DonationStore"] == "Donation" && owner["PeriodStore"] == "Cycle", "stores were not read: \(owner)")
    for (feature, files) in features {
      for (path, text) in files.sorted(by: { $0.key < $1.key }) {
        for store in Self.matches(#/\b(\w+Store)\(/#, in: text).sorted()
        where owner[store].map({ $0 != feature }) == true {
          // Goals are measured in health data: they read it through HealthStore's own API.
          if feature == "Goals" && store == "HealthStore" { continue }
          Issue.record(
            "Sources/Records/\(path) makes \(store): take a value from its caller, or use \(owner[store]!)'s API")
        }
      }
    }
  }

  @Test func theReadersFindWhatTheyLookFor() {
    let sql = """
      SELECT max(start) FROM health_sample WHERE account_id = ?
      INSERT INTO "dose" (id) VALUES (?); UPDATE period SET end = ?
      """
    #expect(Self.tablesNamed(in: sql) == ["health_sample", "dose", "period"])
    #expect(Self.matches(#/\b(\w+Store)\(/#, in: "let p = try PeriodStore(scope).list()") == ["PeriodStore"])
  }
}
