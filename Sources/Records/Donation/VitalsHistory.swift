import Foundation

/// The measurements of a donor's completed donations, oldest first, with how haemoglobin moved
/// and the least the service takes: what a donor looks at before the next appointment.
public struct VitalsHistory: Equatable, Sendable {
  public struct Row: Equatable, Sendable {
    public let donation: Donation
    /// Haemoglobin against the previous donation that measured it (g/dL).
    public let haemoglobinChange: Double?
    /// Whether haemoglobin was under the service's minimum for the donor.
    public let belowMinimum: Bool
  }

  public let rows: [Row]
  /// The least haemoglobin (g/dL) the region's service takes from this donor.
  public let minimumHaemoglobin: Double
  /// The straight line through the haemoglobin figures, in g/dL per year; nil with fewer than
  /// two on different days.
  public let haemoglobinPerYear: Double?
  /// The same for ferritin, in ng/mL per year.
  public let ferritinPerYear: Double?

  public init(donations: [Donation], rules: DonationRules, sex: Sex?) {
    let minimum = rules.minimumHaemoglobin(sex: sex)
    let measured = donations.filter { $0.status == .completed && !$0.vitals.isEmpty && $0.completedAt != nil }
      .sorted { ($0.completedAt!, $0.id) < ($1.completedAt!, $1.id) }
    var rows: [Row] = []
    var previous: Double?
    for donation in measured {
      let hb = donation.vitals.haemoglobin
      rows.append(
        Row(
          donation: donation, haemoglobinChange: hb.flatMap { hb in previous.map { Self.tenth(hb - $0) } },
          belowMinimum: hb.map { $0 < minimum } ?? false))
      if let hb { previous = hb }
    }
    self.rows = rows
    minimumHaemoglobin = minimum
    haemoglobinPerYear = Self.slope(measured.compactMap { d in d.vitals.haemoglobin.map { (d.completedAt!, $0) } })
    ferritinPerYear = Self.slope(measured.compactMap { d in d.vitals.ferritin.map { (d.completedAt!, $0) } })
  }

  /// The least stretch of time a trend is drawn over: a few weeks between two figures say
  /// nothing about a year.
  static let trendSpan: TimeInterval = 180 * 86_400

  /// Least-squares slope per year of `points`; nil over less than `trendSpan`.
  static func slope(_ points: [(Date, Double)]) -> Double? {
    guard points.count >= 2, let first = points.map(\.0).min(), let last = points.map(\.0).max(),
      last.timeIntervalSince(first) >= trendSpan
    else { return nil }
    let years = points.map { $0.0.timeIntervalSince1970 / (365.25 * 86_400) }
    let values = points.map(\.1)
    let meanX = years.reduce(0, +) / Double(years.count)
    let meanY = values.reduce(0, +) / Double(values.count)
    let spread = years.reduce(0) { $0 + ($1 - meanX) * ($1 - meanX) }
    guard spread > 1e-9 else { return nil }
    let covariance = zip(years, values).reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
    return Self.tenth(covariance / spread)
  }

  static func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
