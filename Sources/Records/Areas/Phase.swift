/// The Bavarian traffic light for 7-day incidence per 100,000, with no gaps between phases:
/// green <= 35 < yellow <= 50 < red <= 100 < dark red, thresholds configurable.
public enum Phase: String, CaseIterable, Sendable {
  case green, yellow, red
  case darkRed = "dark-red"

  public var label: (en: String, de: String) {
    switch self {
    case .green: return ("green", "grün")
    case .yellow: return ("yellow", "gelb")
    case .red: return ("red", "rot")
    case .darkRed: return ("dark red", "dunkelrot")
    }
  }
}

public struct PhaseScale: Equatable, Sendable {
  /// The upper bounds of green, yellow and red, increasing.
  public let thresholds: [Double]

  public static let bavarian = PhaseScale(thresholds: [35, 50, 100])!

  public init?(thresholds: [Double]) {
    guard thresholds.count == 3, thresholds.allSatisfy({ $0.isFinite && $0 >= 0 }),
      thresholds[0] < thresholds[1], thresholds[1] < thresholds[2]
    else { return nil }
    self.thresholds = thresholds
  }

  /// nil for an unknown incidence (missing or negative): never a phase by accident.
  public func phase(_ incidence: Double?) -> Phase? {
    guard let incidence, incidence.isFinite, incidence >= 0 else { return nil }
    if incidence <= thresholds[0] { return .green }
    if incidence <= thresholds[1] { return .yellow }
    if incidence <= thresholds[2] { return .red }
    return .darkRed
  }

  /// `green: 0 to 35`, ...: what `vital area phases` prints.
  public var ranges: [(Phase, lower: Double?, upper: Double?)] {
    [
      (.green, nil, thresholds[0]), (.yellow, thresholds[0], thresholds[1]), (.red, thresholds[1], thresholds[2]),
      (.darkRed, thresholds[2], nil),
    ]
  }
}
