import Foundation

/// The tests Vital knows (`lab-tests.json`, built into the binary): found by id or alias as
/// people type them, and, for a name it does not know, the nearest ones it does.
public struct LabCatalogue: Sendable {
  public let tests: [LabTest]
  private let byName: [String: Int]
  /// Each test's units by `LabUnits.key`: canonical = value × factor + offset. Built once, so
  /// that a CSV of 100,000 rows compares keys, not names.
  private let conversions: [String: [String: Conversion]]

  package struct Conversion {
    package let factor: Double
    package let offset: Double
    /// The test's own unit (as UCUM writes it, or as people read it).
    package let isCanonical: Bool
  }

  /// The catalogue shipped with this Vital.
  public static let shipped: LabCatalogue = {
    do { return try LabCatalogue(json: Data(PackageResources.lab_tests_json)) } catch {
      preconditionFailure("lab-tests.json does not read: \(error)")
    }
  }()

  public init(json: Data) throws {
    let tests = try LabTest.all(json: json)
    var byName: [String: Int] = [:]
    for (index, test) in tests.enumerated() {
      for name in [test.id] + test.aliases {
        let key = Self.key(name)
        guard byName[key] == nil else { throw LabError.catalogue("'\(name)' names two tests") }
        byName[key] = index
      }
    }
    self.tests = tests
    self.byName = byName
    var conversions: [String: [String: Conversion]] = [:]
    for test in tests {
      var units: [String: Conversion] = [:]
      for other in test.units {
        for name in [other.unit, other.display] {
          units[LabUnits.key(name)] = Conversion(factor: other.factor, offset: other.offset ?? 0, isCanonical: false)
        }
      }
      for name in [test.unit, test.displayUnit] {
        units[LabUnits.key(name)] = Conversion(factor: 1, offset: 0, isCanonical: true)
      }
      conversions[test.id] = units
    }
    self.conversions = conversions
  }

  /// How `unit` converts to `test`'s canonical unit; nil for a unit the test does not take.
  package func conversion(_ unit: String, of test: LabTest) -> Conversion? {
    conversions[test.id]?[LabUnits.key(unit)]
  }

  /// The test called `name` (its id or an alias, any case).
  public func test(_ name: String) -> LabTest? { byName[Self.key(name)].map { tests[$0] } }

  /// The test with this LOINC code (a blood pressure's panel code).
  public func test(loinc: String) -> LabTest? { tests.first { $0.loinc == loinc } }

  /// The test called `name`, or an error naming the nearest ones.
  public func require(_ name: String) throws -> LabTest {
    if let test = test(name) { return test }
    throw LabError.unknownTest(String(name.prefix(40)), nearest: nearest(to: name))
  }

  /// Up to three test ids whose names are closest to `name` (a typo, a different spelling).
  public func nearest(to name: String) -> [String] {
    let key = Self.key(name)
    var best: [(distance: Int, id: String)] = []
    for (alias, index) in byName {
      let distance = alias.hasPrefix(key) || key.hasPrefix(alias) ? 1 : Self.distance(key, alias)
      best.append((distance, tests[index].id))
    }
    var seen = Set<String>()
    return best.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
      .filter { $0.distance <= max(2, key.count / 3) && seen.insert($0.id).inserted }.prefix(3).map(\.id)
  }

  /// Lower case, `_` and spaces as `-`. By hand: Foundation's string replacing costs more than
  /// the rest of reading the catalogue.
  static func key(_ name: String) -> String {
    var bytes = Array(name.lowercased().utf8)
    while bytes.last == UInt8(ascii: " ") || bytes.last == UInt8(ascii: "\t") { bytes.removeLast() }
    let start = bytes.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? bytes.endIndex
    for i in bytes.indices where bytes[i] == UInt8(ascii: "_") || bytes[i] == UInt8(ascii: " ") {
      bytes[i] = UInt8(ascii: "-")
    }
    return String(decoding: bytes[start...], as: UTF8.self)
  }

  /// Levenshtein distance, on the bytes of two short names.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    guard !a.isEmpty else { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in stride(from: 1, through: b.count, by: 1) {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
