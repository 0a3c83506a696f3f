import Foundation

/// One blood pressure reading: Apple Health's `HKCorrelationTypeIdentifierBloodPressure`, its
/// systolic and diastolic halves kept together as the value `128/82` (mmHg) of one sample.
public struct BloodPressure: Equatable, Sendable, CustomStringConvertible {
  public static let correlationType = "HKCorrelationTypeIdentifierBloodPressure"
  public static let systolicType = "HKQuantityTypeIdentifierBloodPressureSystolic"
  public static let diastolicType = "HKQuantityTypeIdentifierBloodPressureDiastolic"
  public static let unit = "mmHg"

  public var systolic: Double
  public var diastolic: Double

  public init(systolic: Double, diastolic: Double) {
    (self.systolic, self.diastolic) = (systolic, diastolic)
  }

  /// `128/82`, as stored: whole numbers without a decimal point.
  public var description: String { "\(Self.number(systolic))/\(Self.number(diastolic))" }

  public init?(stored text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let s = Double(parts[0]), let d = Double(parts[1]), s.isFinite, d.isFinite else {
      return nil
    }
    self.init(systolic: s, diastolic: d)
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
  }
}
