import Foundation

/// The limits a blood service sets, as data. Figures and sources:
///
/// - de: Transfusionsgesetz and the Hämotherapie-Richtlinie of the Bundesärztekammer, as the
///   BZgA and DRK explain them (blutspende.de, "Wie oft darf man Blut spenden?", 2023):
///   whole blood every 56 days, at most 6 (men) / 4 (women) in 12 months; plasma every 2 days,
///   at most 60 a year, about 10 days after whole blood; platelets about every 14 days, at most
///   26 a year, at least 2 days after whole blood; red-cell apheresis at most 3 a year (Vital
///   uses 112 days between them, as the US does). Donors 18 to 68, first donation up to 60,
///   at least 50 kg.
/// - us: American Red Cross ("Donation frequency", redcrossblood.org): whole blood every 56
///   days up to 6 a year; Power Red (double red) every 112 days up to 3 a year; platelets every
///   7 days up to 24 a year; plasma every 28 days up to 13 a year. At least 110 lb (49.9 kg);
///   Power Red men 130 lb, women 150 lb. Age 17 (16 with consent in some states; Vital uses 17).
/// - uk: NHS Blood and Transplant (blood.co.uk, "Who can give blood"): whole blood every 12
///   weeks for men and 16 weeks for women; platelets every 2 weeks up to 24 a year; plasma
///   every 2 weeks. Age 17 to 65 for a first donation, existing donors to 70; at least 50 kg.
///   NHSBT does not collect double red cells: Vital applies the US figures for that kind.
///
/// The least haemoglobin before a donation: de 12.5 g/dL women, 13.5 g/dL men (Hämotherapie-
/// Richtlinie 2.2.1); us 12.5 g/dL women, 13.0 g/dL men (21 CFR 630.10(f)(3)); uk 12.5 g/dL
/// women, 13.5 g/dL men (NHSBT, "Haemoglobin and iron", blood.co.uk).
public struct DonationRules: Sendable {
  public let region: Region
  /// Days between the end of a donation of one kind and the next of another.
  let waits: [DonationKind: [DonationKind: Int]]
  /// Whole-blood interval where it differs by sex (uk).
  let wholeBloodIntervalBySex: [Sex: Int]
  let capPerYear: [DonationKind: Int]
  let wholeBloodCapBySex: [Sex: Int]
  public let minimumAge: Int
  public let maximumAge: Int
  public let maximumFirstDonationAge: Int
  public let minimumWeightKg: Double
  public let doubleRedMinimumWeightKg: [Sex: Double]
  /// g/dL, by sex.
  let minimumHaemoglobinBySex: [Sex: Double]
  public let source: String

  /// The least haemoglobin (g/dL) this service takes from a donor of `sex` (the stricter
  /// figure when sex is not known).
  public func minimumHaemoglobin(sex: Sex?) -> Double {
    if let sex, let figure = minimumHaemoglobinBySex[sex] { return figure }
    return minimumHaemoglobinBySex.values.max() ?? 0
  }

  /// The wait after a donation of `previous` before one of `next`, for a donor of `sex`
  /// (the stricter figure when sex is not known).
  public func wait(after previous: DonationKind, before next: DonationKind, sex: Sex?) -> Int {
    if previous == .wholeBlood && next == .wholeBlood && !wholeBloodIntervalBySex.isEmpty {
      if let sex, let days = wholeBloodIntervalBySex[sex] { return days }
      return wholeBloodIntervalBySex.values.max() ?? 0
    }
    return waits[previous]?[next] ?? 0
  }

  /// At most this many donations of `kind` in any 12 months; nil when there is no cap.
  public func cap(for kind: DonationKind, sex: Sex?) -> Int? {
    if kind == .wholeBlood && !wholeBloodCapBySex.isEmpty {
      if let sex, let cap = wholeBloodCapBySex[sex] { return cap }
      return wholeBloodCapBySex.values.min()
    }
    return capPerYear[kind]
  }

  public static func forRegion(_ region: Region) -> DonationRules {
    switch region {
    case .de: return germany
    case .us: return unitedStates
    case .uk: return unitedKingdom
    }
  }

  static let germany = DonationRules(
    region: .de,
    waits: [
      .wholeBlood: [.wholeBlood: 56, .plasma: 10, .platelets: 2, .doubleRed: 56],
      .plasma: [.wholeBlood: 2, .plasma: 2, .platelets: 2, .doubleRed: 2],
      .platelets: [.wholeBlood: 2, .plasma: 2, .platelets: 14, .doubleRed: 14],
      .doubleRed: [.wholeBlood: 112, .plasma: 14, .platelets: 14, .doubleRed: 112],
    ],
    wholeBloodIntervalBySex: [:],
    capPerYear: [.plasma: 60, .platelets: 26, .doubleRed: 3],
    wholeBloodCapBySex: [.male: 6, .female: 4],
    minimumAge: 18, maximumAge: 68, maximumFirstDonationAge: 60, minimumWeightKg: 50,
    doubleRedMinimumWeightKg: [.male: 70, .female: 70], minimumHaemoglobinBySex: [.female: 12.5, .male: 13.5],
    source: "Transfusionsgesetz and Hämotherapie-Richtlinie (BÄK), as published on blutspende.de")

  static let unitedStates = DonationRules(
    region: .us,
    waits: [
      .wholeBlood: [.wholeBlood: 56, .plasma: 28, .platelets: 7, .doubleRed: 56],
      .plasma: [.wholeBlood: 28, .plasma: 28, .platelets: 28, .doubleRed: 28],
      .platelets: [.wholeBlood: 7, .plasma: 28, .platelets: 7, .doubleRed: 7],
      .doubleRed: [.wholeBlood: 112, .plasma: 112, .platelets: 112, .doubleRed: 112],
    ],
    wholeBloodIntervalBySex: [:],
    capPerYear: [.wholeBlood: 6, .plasma: 13, .platelets: 24, .doubleRed: 3],
    wholeBloodCapBySex: [:],
    minimumAge: 17, maximumAge: 120, maximumFirstDonationAge: 120, minimumWeightKg: 49.9,
    doubleRedMinimumWeightKg: [.male: 59, .female: 68], minimumHaemoglobinBySex: [.female: 12.5, .male: 13.0],
    source: "American Red Cross, donation frequency and eligibility (redcrossblood.org)")

  static let unitedKingdom = DonationRules(
    region: .uk,
    waits: [
      .wholeBlood: [.plasma: 14, .platelets: 14, .doubleRed: 112],
      .plasma: [.wholeBlood: 14, .plasma: 14, .platelets: 14, .doubleRed: 14],
      .platelets: [.wholeBlood: 14, .plasma: 14, .platelets: 14, .doubleRed: 14],
      .doubleRed: [.wholeBlood: 112, .plasma: 112, .platelets: 112, .doubleRed: 112],
    ],
    wholeBloodIntervalBySex: [.male: 84, .female: 112],
    capPerYear: [.platelets: 24, .plasma: 24, .doubleRed: 3],
    wholeBloodCapBySex: [:],
    minimumAge: 17, maximumAge: 70, maximumFirstDonationAge: 65, minimumWeightKg: 50,
    doubleRedMinimumWeightKg: [.male: 59, .female: 68], minimumHaemoglobinBySex: [.female: 12.5, .male: 13.5],
    source: "NHS Blood and Transplant, who can give blood (blood.co.uk)")
}
