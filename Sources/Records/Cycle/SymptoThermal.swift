import Core
import Foundation

/// The sympto-thermal evaluation of one cycle (`docs/nfp.md`): a temperature shift over a cover
/// line, a mucus peak, and the day from which the rest of the cycle counts as infertile once both
/// confirm ovulation. Pure; no advice: what it finds is shown, never acted on.
public struct SymptoThermal: Equatable, Sendable {
  public struct TemperatureShift: Equatable, Sendable {
    /// The first of the higher measurements.
    public let firstHigh: LocalDate
    /// The highest of the six measurements before it, rounded to 0.05 °C.
    public let coverLine: Double
    /// The measurement that completed the shift.
    public let confirmed: LocalDate
    /// 0: the regular rule; 1 and 2: the first and second exception.
    public let rule: Int
  }

  public struct MucusPeak: Equatable, Sendable {
    public let peak: LocalDate
    /// The third day after the peak with lower quality.
    public let confirmed: LocalDate
  }

  public let temperatureShift: TemperatureShift?
  public let mucusPeak: MucusPeak?

  /// The first day after both signs confirmed ovulation; nil until both have.
  public var infertileFrom: LocalDate? {
    guard let temperatureShift, let mucusPeak else { return nil }
    return max(temperatureShift.confirmed, mucusPeak.confirmed).adding(days: 1)
  }

  public enum Method: String, Sendable {
    case symptoThermal = "sympto-thermal"
    case calendar
  }

  public var method: Method { infertileFrom == nil ? .calendar : .symptoThermal }

  /// Evaluates the notes of one cycle (its first day on); notes from other cycles must not be
  /// passed.
  public static func evaluate(_ notes: [CycleNote]) -> SymptoThermal {
    let days = notes.sorted { $0.date < $1.date }
    let shift = temperatureShift(days)
    let peak = shift.flatMap { mucusPeak(days, evaluatedUntil: $0.confirmed) }
    return SymptoThermal(temperatureShift: shift, mucusPeak: peak)
  }

  /// A measurement in hundredths of a degree, to the nearest 0.05 °C as a paper chart is read:
  /// whole numbers, so that a difference of 0.15 °C is never taken for 0.2.
  static func chartValue(_ celsius: Double) -> Int { Int((celsius * 20).rounded()) * 5 }

  static func temperatureShift(_ days: [CycleNote]) -> TemperatureShift? {
    let measured = days.compactMap { day -> (date: LocalDate, value: Int)? in
      guard let value = day.temperature, !day.temperatureExcluded else { return nil }
      return (day.date, chartValue(value))
    }
    // Six lower measurements come first; a day without one is skipped, not counted.
    guard measured.count >= 7 else { return nil }
    for i in 6..<measured.count {
      let cover = measured[(i - 6)..<i].map(\.value).max()!
      guard measured[i].value > cover else { continue }
      // Three higher measurements make the shift; a fourth may be needed by the exceptions.
      guard i + 2 < measured.count else { return nil }
      func high(_ j: Int) -> Bool { j < measured.count && measured[j].value > cover }
      func clear(_ j: Int) -> Bool { j < measured.count && measured[j].value - cover >= 20 }
      func shift(confirmed j: Int, rule: Int) -> TemperatureShift {
        TemperatureShift(
          firstHigh: measured[i].date, coverLine: Double(cover) / 100, confirmed: measured[j].date, rule: rule)
      }
      if high(i + 1) && high(i + 2) {
        if clear(i + 2) {
          return shift(confirmed: i + 2, rule: 0)
        }
        // First exception: the third is higher but not by 0.2 °C; a fourth higher one will do.
        if high(i + 3) {
          return shift(confirmed: i + 3, rule: 1)
        }
        continue
      }
      // Second exception: one of the second and third falls back to the cover line or below; it
      // is not counted, and the fourth must then be 0.2 °C above.
      if high(i + 1) != high(i + 2), clear(i + 3) {
        return shift(confirmed: i + 3, rule: 2)
      }
    }
    return nil
  }

  /// The last day of the best quality seen in the cycle, followed by three days of lower quality,
  /// with no day of that quality again until the temperature shift is confirmed.
  static func mucusPeak(_ days: [CycleNote], evaluatedUntil: LocalDate) -> MucusPeak? {
    let observed = days.compactMap { day in day.mucus.map { (date: day.date, quality: $0.quality) } }
    guard let best = observed.map(\.quality).max() else { return nil }
    for (i, day) in observed.enumerated() where day.quality == best {
      let following = observed[(i + 1)...].prefix(3)
      guard following.count == 3, following.allSatisfy({ $0.quality < best }) else { continue }
      let later = observed[(i + 1)...].filter { $0.date <= evaluatedUntil }
      guard later.allSatisfy({ $0.quality < best }) else { continue }
      return MucusPeak(peak: day.date, confirmed: following.last!.date)
    }
    return nil
  }
}
