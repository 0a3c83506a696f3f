import Foundation

/// One result: a test's value at a moment, in the test's canonical unit, with the value and unit
/// as they were written (a letter's 95 mg/dL stays 95 mg/dL) and the laboratory's own range,
/// which wins over the catalogue's default.
public struct LabResult: Equatable, Sendable {
  public var id: String
  /// The catalogue id (`ferritin`); a test a newer Vital knows and this one does not is kept as is.
  public var test: String
  /// In the test's canonical unit; a blood pressure's systolic.
  public var value: Double
  /// A blood pressure's diastolic; nil for a test of one number.
  public var second: Double?
  /// The value and unit as written, when the unit was not the canonical one.
  public var recorded: Double?
  public var recordedUnit: String?
  /// When the sample was taken (or the measurement made).
  public var at: Date
  public var lab: String?
  /// The laboratory's range, in the canonical unit.
  public var rangeLow: Double?
  public var rangeHigh: Double?
  public var note: String?
  /// The donation this result was measured at, if any.
  public var donationID: String?

  public init(
    id: String, test: String, value: Double, second: Double? = nil, at: Date, recorded: Double? = nil,
    recordedUnit: String? = nil, lab: String? = nil, rangeLow: Double? = nil, rangeHigh: Double? = nil,
    note: String? = nil, donationID: String? = nil
  ) {
    self.id = id
    self.test = test
    self.value = value
    self.second = second
    self.at = at
    self.recorded = recorded
    self.recordedUnit = recordedUnit
    self.lab = lab
    self.rangeLow = rangeLow
    self.rangeHigh = rangeHigh
    self.note = note
    self.donationID = donationID
  }

  /// Who gave it: `donation, DRK Mitte` for a donation's, else the laboratory (empty by hand).
  public var source: String {
    donationID != nil ? "donation" + (lab.map { ", \($0)" } ?? "") : lab ?? ""
  }

  /// Where the value stands against a range: below (L), within (N), above (H); nil without one.
  public enum Flag: String, Sendable {
    case low = "L"
    case normal = "N"
    case high = "H"
  }

  /// The range this result is read against: the laboratory's, else the catalogue's for `sex`
  /// (a pair's first number's: systolic).
  public func range(_ test: LabTest?, sex: Sex?) -> (low: Double?, high: Double?, ownRange: Bool)? {
    if rangeLow != nil || rangeHigh != nil { return (rangeLow, rangeHigh, true) }
    guard let range = test?.range(for: sex, component: test?.isPair == true ? "systolic" : nil) else { return nil }
    return (range.low, range.high, false)
  }

  /// A pair's second number's range (diastolic), from the catalogue.
  public func secondRange(_ test: LabTest?, sex: Sex?) -> LabTest.Range? {
    guard second != nil, rangeLow == nil, rangeHigh == nil else { return nil }
    return test?.range(for: sex, component: "diastolic")
  }

  /// High if any number is above its range, else low if any is below; nil without a range.
  public func flag(_ test: LabTest?, sex: Sex?) -> Flag? {
    guard let range = range(test, sex: sex) else { return nil }
    var checks = [(value, range.low, range.high)]
    if let second, let other = secondRange(test, sex: sex) { checks.append((second, other.low, other.high)) }
    if checks.contains(where: { v, _, high in high.map { v > $0 } ?? false }) { return .high }
    if checks.contains(where: { v, low, _ in low.map { v < $0 } ?? false }) { return .low }
    return .normal
  }
}
