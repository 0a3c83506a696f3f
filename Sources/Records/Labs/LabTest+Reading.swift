import Core
import Foundation

/// The catalogue read with `JSONScanner`: every command that names a test reads the whole file,
/// and `JSONDecoder` spent a third of a trend's time on it.
extension LabTest {
  /// The tests of `json` (docs/labs.md, "Schema"); a missing or mistyped key names the test.
  static func all(json: Data) throws -> [LabTest] {
    let root = try json.withUnsafeBytes { raw in
      var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self))
      return try scanner.value()
    }
    guard case .array(let entries) = root else { throw LabError.catalogue("not an array of tests") }
    return try entries.enumerated().map { index, node in try LabTest(node, index: index) }
  }

  private init(_ node: JSONScanner.Node, index: Int) throws {
    let test = try Fields(node, "test \(index + 1)").string("id")
    let f = try Fields(node, test)
    id = test
    name = try f.string("name")
    loinc = try f.string("loinc")
    loincSystolic = try f.optionalString("loinc_systolic")
    loincDiastolic = try f.optionalString("loinc_diastolic")
    aliases = try f.array("aliases").map { try Fields.string($0, "\(test): aliases") }
    unit = try f.string("unit")
    displayUnit = try f.string("display_unit")
    units = try f.array("units").map { node in
      let u = try Fields(node, "\(f.what): units")
      return Unit(
        unit: try u.string("unit"), display: try u.string("display"), factor: try u.number("factor"),
        offset: try u.optionalNumber("offset"), basis: try u.string("basis"))
    }
    ranges = try f.array("ranges").map { node in
      let r = try Fields(node, "\(f.what): ranges")
      return Range(
        sex: try r.string("sex"), low: try r.optionalNumber("low"), high: try r.optionalNumber("high"),
        component: try r.optionalString("component"))
    }
    rangeSource = try f.string("range_source")
    plausible = try f.array("plausible").map { try Fields.number($0, "\(test): plausible") }
    guard let kind = Kind(rawValue: try f.string("kind")) else { throw LabError.catalogue("\(test): kind") }
    self.kind = kind
    decimals = Int(try f.number("decimals"))
  }

  /// An object's members by name, each read as the type asked for or an error naming it.
  private struct Fields {
    let members: [String: JSONScanner.Node]
    let what: String

    init(_ node: JSONScanner.Node, _ what: String) throws {
      guard case .object(let pairs) = node else { throw LabError.catalogue("\(what) is not an object") }
      members = Dictionary(pairs, uniquingKeysWith: { _, last in last })
      self.what = what
    }

    func string(_ key: String) throws -> String {
      guard let value = try optionalString(key) else { throw LabError.catalogue("\(what): no \(key)") }
      return value
    }

    func optionalString(_ key: String) throws -> String? {
      guard let node = members[key] else { return nil }
      if case .null = node { return nil }
      return try Self.string(node, "\(what): \(key)")
    }

    func number(_ key: String) throws -> Double {
      guard let value = try optionalNumber(key) else { throw LabError.catalogue("\(what): no \(key)") }
      return value
    }

    func optionalNumber(_ key: String) throws -> Double? {
      guard let node = members[key] else { return nil }
      if case .null = node { return nil }
      return try Self.number(node, "\(what): \(key)")
    }

    func array(_ key: String) throws -> [JSONScanner.Node] {
      guard let node = members[key] else { return [] }
      guard case .array(let items) = node else { throw LabError.catalogue("\(what): \(key) is not an array") }
      return items
    }

    static func string(_ node: JSONScanner.Node, _ what: String) throws -> String {
      guard case .string(let text) = node else { throw LabError.catalogue("\(what) is not text") }
      return text
    }

    static func number(_ node: JSONScanner.Node, _ what: String) throws -> Double {
      switch node {
      case .int(let n): return Double(n)
      case .double(let d): return d
      default: throw LabError.catalogue("\(what) is not a number")
      }
    }
  }
}
