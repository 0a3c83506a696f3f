import Foundation

/// One name per quantity everywhere (goals, samples added by hand, trends): `steps`,
/// `distance`, `energy`, `exercise`; the names used before are accepted as aliases. Values are
/// typed with their unit (`5km`, `3 mi`, `500kcal`, `30min`) and printed with it.
extension HealthTotals.Measure {
  /// Earlier names and the words people use, each to its quantity.
  public static let aliases: [String: HealthTotals.Measure] = [
    "step": .steps, "step-count": .steps,
    "distance-m": .distance, "walking-distance": .distance, "walking-running-distance": .distance,
    "active-energy": .energy, "active-energy-kcal": .energy, "calories": .energy, "kcal": .energy,
    "exercise-min": .exercise, "exercise-minutes": .exercise, "exercise-time": .exercise,
  ]

  /// A quantity by its name or an alias, in any case.
  public init?(name: String) {
    let key = name.trimmingCharacters(in: .whitespaces).lowercased()
    guard let measure = Self(rawValue: key) ?? Self.aliases[key] else { return nil }
    self = measure
  }

  /// The unit values are kept in: steps, metres, kilocalories, minutes.
  public var unit: String {
    switch self {
    case .steps: return "steps"
    case .distance: return "m"
    case .energy: return "kcal"
    case .exercise: return "min"
    }
  }

  /// The units a value may be typed in, each with its factor to `unit`.
  var units: [String: Double] {
    switch self {
    case .steps: return ["steps": 1, "step": 1]
    case .distance:
      return [
        "m": 1, "km": 1000, "mi": 1609.344, "mile": 1609.344, "miles": 1609.344, "ft": 0.3048, "yd": 0.9144,
      ]
    // Food and fitness labels write kilocalories as "Cal" or "cal"; nobody counts single calories.
    case .energy: return ["kcal": 1, "cal": 1, "kj": 1 / 4.184]
    case .exercise: return ["min": 1, "mins": 1, "minutes": 1, "m": 1, "h": 60, "hr": 60, "hours": 60]
    }
  }

  public enum ValueError: Error, Equatable, CustomStringConvertible {
    case notANumber(String, HealthTotals.Measure)
    case unknownUnit(String, HealthTotals.Measure)
    /// A bare number too small to be metres: almost surely kilometres or miles.
    case bareDistance(String)
    case outOfRange(HealthTotals.Measure)

    public var description: String {
      switch self {
      case .notANumber(let text, let measure):
        return "'\(text.prefix(20))' is not an amount of \(measure.rawValue); write it like \(measure.example)"
      case .unknownUnit(let unit, let measure):
        let units = measure.units.keys.sorted().joined(separator: ", ")
        return
          "'\(unit.prefix(10))' is not a unit of \(measure.rawValue); use one of \(units) (e.g. \(measure.example))"
      case .bareDistance(let text):
        return
          "a distance without a unit is in metres, and \(text) m is hardly a distance; write the unit, e.g. \(text)km or \(text)mi"
      case .outOfRange(let measure):
        return "the amount must be above 0 and at most \(measure.text(measure.limit)); check the unit"
      }
    }
  }

  var example: String {
    switch self {
    case .steps: return "8000"
    case .distance: return "5km"
    case .energy: return "500kcal"
    case .exercise: return "30min"
    }
  }

  /// The most one day's value may be: far past what a body does, short of a typo's zeros.
  var limit: Double {
    switch self {
    case .steps: return 1_000_000
    case .distance: return 1_000_000
    case .energy: return 100_000
    case .exercise: return 1440
    }
  }

  /// `5km`, `5 km`, `3.1 mi`, `500kcal`, `1h30m`, `8000`: the amount in `unit`. A bare number is
  /// in `unit`; a bare distance under 50 is refused as a missing unit.
  public func value(_ text: String) throws -> Double {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if self == .exercise, trimmed.contains(where: \.isLetter), let seconds = TimeSpan.seconds(trimmed),
      !trimmed.lowercased().hasSuffix("min")
    {
      return try checked(seconds / 60)
    }
    let number = trimmed.prefix { $0.isNumber || $0 == "." }
    let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces).lowercased()
    guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, let amount = Double(number), amount.isFinite
    else { throw ValueError.notANumber(trimmed, self) }
    if unit.isEmpty {
      if self == .distance, amount < 50 { throw ValueError.bareDistance(String(number)) }
      return try checked(amount)
    }
    guard let factor = units[unit] else { throw ValueError.unknownUnit(unit, self) }
    return try checked(amount * factor)
  }

  private func checked(_ value: Double) throws -> Double {
    guard value.isFinite, value > 0, value <= limit else { throw ValueError.outOfRange(self) }
    return value
  }

  /// `7745 steps`, `850 m`, `7.7 km`, `520 kcal`, `45 min`.
  public func text(_ value: Double) -> String {
    switch self {
    case .steps: return "\(value.wholeText) steps"
    case .distance:
      if !(value >= 1000) { return "\(value.wholeText) m" }
      let km = (value / 100).rounded() / 10
      return km == km.rounded() ? "\(km.wholeText) km" : String(format: "%.1f km", km)
    case .energy: return "\(value.wholeText) kcal"
    case .exercise: return "\(value.wholeText) min"
    }
  }
}
