import Core
import Foundation
import Testing

@testable import Records

@Suite struct SymptoThermalTests {
  static let first = LocalDate("2026-03-01")!

  /// One note a day from `first`, a temperature each (nil: none taken that day).
  func days(_ temperatures: [Double?], from start: LocalDate = first) -> [CycleNote] {
    temperatures.enumerated().map { i, t in
      var note = CycleNote(date: start.adding(days: i))
      note.temperature = t
      return note
    }
  }

  func day(_ i: Int) -> LocalDate { Self.first.adding(days: i) }

  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let temperatures: [Double]
    /// first high, confirmed (day indexes), cover line, rule; nil: no shift.
    let expected: (Int, Int, Double, Int)?
    var testDescription: String { name }
  }

  /// drip's published test series (lib/sympto/temperature, test/sympto/temperature.spec.js),
  /// one measurement a day: the answers there, reached by the rules in docs/nfp.md.
  static let dripCases: [Case] = [
    Case(name: "lower temperatures only", temperatures: [36.7, 36.57, 36.47, 36.49, 36.57], expected: nil),
    Case(
      name: "regular rule", temperatures: [36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.8],
      expected: (7, 9, 36.6, 0)),
    Case(
      name: "regular rule, a drop after the third",
      temperatures: [36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.8, 36.4], expected: (7, 9, 36.6, 0)
    ),
    Case(
      name: "not six lower first", temperatures: [36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.8], expected: nil),
    Case(
      name: "not high enough", temperatures: [36.57, 36.7, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.8],
      expected: nil),
    Case(
      name: "third only 0.15 above",
      temperatures: [36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.77],
      expected: nil),
    Case(
      name: "after an earlier one failed",
      temperatures: [36.4, 36.4, 36.4, 36.4, 36.4, 36.4, 36.6, 36.6, 36.4, 36.4, 36.7, 36.8, 36.9],
      expected: (10, 12, 36.6, 0)),
    Case(
      name: "two failed in a row",
      temperatures: [36.4, 36.4, 36.4, 36.4, 36.4, 36.4, 36.6, 36.6, 36.4, 36.4, 36.6, 36.6, 36.7], expected: nil),
    Case(
      name: "first exception",
      temperatures: [36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.77, 36.63],
      expected: (7, 10, 36.6, 1)),
    Case(
      name: "first exception, fourth not higher",
      temperatures: [36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.77, 36.57], expected: nil),
    Case(
      name: "first exception, after an earlier one failed",
      temperatures: [36.4, 36.4, 36.4, 36.4, 36.4, 36.4, 36.6, 36.6, 36.4, 36.4, 36.7, 36.7, 36.7, 36.7],
      expected: (10, 13, 36.6, 1)),
    Case(
      name: "second exception, one at the cover line",
      temperatures: [36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.6, 36.8],
      expected: (7, 10, 36.6, 2)),
    Case(
      name: "second exception, one below it",
      temperatures: [36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.4, 36.8],
      expected: (7, 10, 36.6, 2)),
    Case(
      name: "second exception, fourth not 0.2 above",
      temperatures: [36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.4, 36.77, 36.77], expected: nil),
    Case(
      name: "second exception, no fourth yet",
      temperatures: [36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.4], expected: nil),
    Case(
      name: "second exception, after an earlier one failed",
      temperatures: [
        36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.4, 36.77, 36.9, 36.9, 36.86, 37.04,
      ], expected: (11, 14, 36.85, 2)),
  ]

  @Test(arguments: dripCases) func temperatureShiftOnDripsSeries(_ c: Case) {
    let shift = SymptoThermal.temperatureShift(days(c.temperatures))
    if let (first, confirmed, cover, rule) = c.expected {
      #expect(shift?.firstHigh == day(first))
      #expect(shift?.confirmed == day(confirmed))
      #expect(shift?.coverLine == cover)
      #expect(shift?.rule == rule)
    } else {
      #expect(shift == nil)
    }
  }

  @Test func aDayWithoutAMeasurementIsSkippedNotCounted() {
    // The regular series with no measurement on day 3: the six before the first high are still
    // six measurements, and the dates are the calendar's.
    let series: [Double?] = [36.7, 36.57, 36.47, nil, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.8]
    let shift = SymptoThermal.temperatureShift(days(series))
    #expect(shift?.firstHigh == day(8))
    #expect(shift?.confirmed == day(10))
    #expect(shift?.coverLine == 36.6)
  }

  @Test func anExcludedFeverIsLeftOut() {
    // A fever on day 6 lifts the cover line to 37.4 and hides the shift; left out, the shift is found.
    var notes = days([36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 37.4, 36.55, 36.8, 36.86, 36.8])
    #expect(SymptoThermal.temperatureShift(notes) == nil)
    notes[6].temperatureExcluded = true
    let shift = SymptoThermal.temperatureShift(notes)
    #expect(shift?.firstHigh == day(8))
    #expect(shift?.confirmed == day(10))
    #expect(shift?.coverLine == 36.6)
  }

  func withMucus(_ notes: [CycleNote], _ mucus: [Int: CycleNote.Mucus]) -> [CycleNote] {
    notes.enumerated().map { i, n in
      var n = n
      n.mucus = mucus[i]
      return n
    }
  }

  static let regular: [Double?] = [36.7, 36.57, 36.47, 36.49, 36.57, 36.62, 36.55, 36.8, 36.86, 36.8, 36.85, 36.8]

  @Test func theMucusPeakIsTheLastBestDayBeforeThreeLowerOnes() {
    let notes = withMucus(
      days(Self.regular), [3: .creamy, 4: .eggwhite, 5: .eggwhite, 6: .sticky, 7: .dry, 8: .dry, 9: .dry])
    let signs = SymptoThermal.evaluate(notes)
    #expect(signs.mucusPeak?.peak == day(5))
    #expect(signs.mucusPeak?.confirmed == day(8))
    #expect(signs.temperatureShift?.confirmed == day(9))
    #expect(signs.infertileFrom == day(10), "the day after the later confirmation (temperature, day 9)")
    #expect(signs.method == .symptoThermal)
  }

  @Test func mucusConfirmingLaterDecidesTheInfertileDays() {
    let notes = withMucus(
      days(Self.regular), [6: .eggwhite, 7: .creamy, 8: .creamy, 10: .dry, 11: .dry])
    let signs = SymptoThermal.evaluate(notes)
    #expect(signs.mucusPeak?.peak == day(6))
    #expect(signs.mucusPeak?.confirmed == day(10), "three observed lower days: 7, 8 and 10")
    #expect(signs.infertileFrom == day(11))
  }

  @Test func bestQualityAgainBeforeTheTemperatureConfirmsMeansNoPeak() {
    // Egg-white on day 4, lower on 5-7, egg-white again on day 8 (before the shift confirms on
    // day 9), then only one lower day: no peak, so no infertile days.
    let notes = withMucus(
      days(Self.regular), [4: .eggwhite, 5: .creamy, 6: .sticky, 7: .dry, 8: .eggwhite, 9: .dry])
    let signs = SymptoThermal.evaluate(notes)
    #expect(signs.temperatureShift != nil)
    #expect(signs.mucusPeak == nil)
    #expect(signs.infertileFrom == nil)
    #expect(signs.method == .calendar)
  }

  @Test func withoutTemperaturesTheMethodStaysCalendar() {
    let notes = withMucus(days(Array(repeating: nil, count: 12)), [4: .eggwhite, 5: .dry, 6: .dry, 7: .dry])
    let signs = SymptoThermal.evaluate(notes)
    #expect(signs.temperatureShift == nil)
    #expect(signs.mucusPeak == nil, "the peak is evaluated only once the temperature has risen")
    #expect(signs.infertileFrom == nil)
  }
}
