import Core
import Foundation

/// One test of the catalogue (`lab-tests.json`, docs/labs.md): what it is called, its LOINC
/// code, the unit its results are kept in and the others people meet, and its default adult
/// reference ranges. Data, read once: a test is added by editing the file, not the code.
public struct LabTest: Sendable, Equatable {
  public enum Kind: String, Sendable {
    /// A laboratory's result, from a doctor's letter.
    case lab
    /// Taken at home: weight, blood pressure, pulse, temperature, glucose, SpO2.
    case measurement
  }

  /// Another unit than the canonical one: canonical = value × factor + offset.
  public struct Unit: Sendable, Equatable {
    public let unit: String
    public let display: String
    public let factor: Double
    public let offset: Double?
    /// Why the factor is what it is (a molar mass, a formula).
    public let basis: String
  }

  /// A default adult reference range in the canonical unit; one side may be open (LDL: below 3).
  public struct Range: Sendable, Equatable {
    /// `any`, `female` or `male`.
    public let sex: String
    public let low: Double?
    public let high: Double?
    /// Which of a pair's numbers (`systolic`, `diastolic`); nil for a test of one.
    public let component: String?
  }

  public let id: String
  public let name: String
  public let loinc: String
  /// A blood pressure's two numbers have codes of their own under the panel's.
  public let loincSystolic: String?
  public let loincDiastolic: String?
  public let aliases: [String]
  /// The canonical unit, as UCUM writes it (`umol/L`), and as people read it (`µmol/L`).
  public let unit: String
  public let displayUnit: String
  public let units: [Unit]
  public let ranges: [Range]
  public let rangeSource: String
  /// Values outside are no body's: a typo (ferritin 35000) until `--force` says otherwise.
  public let plausible: [Double]
  public let kind: Kind
  public let decimals: Int

  /// The range's source by name only (`WHO 2020 guideline on use of ferritin concentrations`),
  /// for a line of text; `rangeSource` has the details and the address.
  public var rangeSourceName: String {
    let cut = rangeSource.firstIndex { $0 == ":" || $0 == "(" || $0 == ";" } ?? rangeSource.endIndex
    let name = rangeSource[..<cut].trimmingCharacters(in: .whitespaces)
    return name.count > 70 ? String(name.prefix(69)) + "…" : name
  }

  /// Whether a result has two numbers (systolic/diastolic).
  public var isPair: Bool { loincSystolic != nil }

  /// The catalogue's range for `sex` (a sex-specific one before the one for anyone); nil when
  /// the test has none for it.
  /// Without a sex (the profile does not say) and ranges that differ by it, the span of them
  /// all: a value is flagged only where it would be for anyone.
  public func range(for sex: Sex?, component: String? = nil) -> Range? {
    let own = ranges.filter { $0.component == component }
    if let range = own.first(where: { $0.sex == sex?.rawValue }) ?? own.first(where: { $0.sex == "any" }) {
      return range
    }
    guard sex == nil, !own.isEmpty else { return nil }
    let lows = own.map(\.low)
    let highs = own.map(\.high)
    return Range(
      sex: "any", low: lows.contains(nil) ? nil : lows.compactMap { $0 }.min(),
      high: highs.contains(nil) ? nil : highs.compactMap { $0 }.max(), component: component)
  }

  /// `value` in `unit` (canonical or another the test names) in the canonical unit; nil for a
  /// unit the test does not know.
  public func canonical(_ value: Double, unit given: String) -> Double? {
    if LabUnits.same(given, unit) || LabUnits.same(given, displayUnit) { return value }
    guard let other = units.first(where: { LabUnits.same(given, $0.unit) || LabUnits.same(given, $0.display) }) else {
      return nil
    }
    return value * other.factor + (other.offset ?? 0)
  }

  /// `15–150`, an open end as `≤ 3.0` and `≥ 1.0` (`up to 3.0`, `at least 1.0` in words), with
  /// `decimals` places; empty without either end.
  public static func rangeText(_ low: Double?, _ high: Double?, decimals: Int, inWords: Bool = false) -> String {
    let number = { (v: Double) in HumanText.fixed(v, decimals: decimals) }
    switch (low, high) {
    case (let low?, let high?): return number(low) + "–" + number(high)
    // The ends are in the range: a result is flagged only beyond them.
    case (nil, let high?): return (inWords ? "up to " : "≤ ") + number(high)
    case (let low?, nil): return (inWords ? "at least " : "≥ ") + number(low)
    case (nil, nil): return ""
    }
  }

  /// Every unit name the test takes, canonical first, as people read them.
  public var unitNames: [String] { [displayUnit] + units.map(\.display) }
}
