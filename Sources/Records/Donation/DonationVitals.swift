import Foundation

/// What the blood service measured at a donation: haemoglobin (g/dL), ferritin (ng/mL, the
/// same number as µg/L), blood pressure (mmHg) and pulse (beats per minute). Any may be missing.
public struct DonationVitals: Equatable, Sendable {
  public var haemoglobin: Double?
  public var ferritin: Double?
  public var systolic: Int?
  public var diastolic: Int?
  public var pulse: Int?

  public init(
    haemoglobin: Double? = nil, ferritin: Double? = nil, systolic: Int? = nil, diastolic: Int? = nil, pulse: Int? = nil
  ) {
    self.haemoglobin = haemoglobin
    self.ferritin = ferritin
    self.systolic = systolic
    self.diastolic = diastolic
    self.pulse = pulse
  }

  public var isEmpty: Bool { self == DonationVitals() }

  /// g/dL per mmol/L of haemoglobin (as the monomer, 16.114 g/mmol): the factor European labs use.
  public static let gramsPerDecilitrePerMillimole = 1.6114

  /// Haemoglobin in g/dL from mmol/L, to the tenth as services print it.
  public static func haemoglobin(millimolesPerLitre: Double) -> Double {
    (millimolesPerLitre * gramsPerDecilitrePerMillimole * 10).rounded() / 10
  }

  /// Ranges outside which a figure is a typo, not a measurement: wide enough for every donor a
  /// service would see (and some it would send home).
  public static let haemoglobinRange = 3.0...25.0
  public static let ferritinRange = 0.0...5000.0
  public static let systolicRange = 50...300
  public static let diastolicRange = 20...200
  public static let pulseRange = 20...250

  /// Checks each given figure; the error names the option and the range.
  public func validated() throws -> DonationVitals {
    if let hb = haemoglobin, !Self.haemoglobinRange.contains(hb) {
      throw VitalsError.outOfRange("haemoglobin", range: "3 to 25 g/dL (1.9 to 15.5 mmol/L)")
    }
    if let ferritin, !Self.ferritinRange.contains(ferritin) {
      throw VitalsError.outOfRange("ferritin", range: "0 to 5000 ng/mL")
    }
    if (systolic == nil) != (diastolic == nil) { throw VitalsError.halfPressure }
    if let systolic, let diastolic {
      guard Self.systolicRange.contains(systolic), Self.diastolicRange.contains(diastolic), systolic > diastolic else {
        throw VitalsError.outOfRange(
          "blood pressure", range: "50 to 300 over 20 to 200 mmHg, the first above the second")
      }
    }
    if let pulse, !Self.pulseRange.contains(pulse) {
      throw VitalsError.outOfRange("pulse", range: "20 to 250 beats per minute")
    }
    return self
  }

  /// Blood pressure as written on a donor card, `120/80`.
  public static func pressure(_ text: String) throws -> (systolic: Int, diastolic: Int) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let systolic = Int(parts[0].trimmingCharacters(in: .whitespaces)),
      let diastolic = Int(parts[1].trimmingCharacters(in: .whitespaces))
    else { throw VitalsError.pressureFormat }
    return (systolic, diastolic)
  }

  /// The figures this one gives, over `old`: an edit changes only what it names.
  public func over(_ old: DonationVitals) -> DonationVitals {
    DonationVitals(
      haemoglobin: haemoglobin ?? old.haemoglobin, ferritin: ferritin ?? old.ferritin,
      systolic: systolic ?? old.systolic, diastolic: diastolic ?? old.diastolic, pulse: pulse ?? old.pulse)
  }
}

public enum VitalsError: Error, Equatable, CustomStringConvertible {
  case outOfRange(String, range: String)
  case halfPressure
  case pressureFormat

  public var description: String {
    switch self {
    // The figure itself is not repeated: errors carry no health values.
    case .outOfRange(let what, let range):
      return "\(what) must be within \(range); check the figure on your donor card"
    case .halfPressure: return "give blood pressure as both numbers, e.g. --bp 120/80"
    case .pressureFormat:
      return "write blood pressure as systolic/diastolic in mmHg, e.g. --bp 120/80"
    }
  }
}
