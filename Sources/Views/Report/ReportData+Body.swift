import Core
import Foundation
import Records

extension ReportData {
  /// Sleep, weight, resting heart rate and blood pressure, and the range of every vital, as
  /// `vital health sleep` and `vital health vitals` read them.
  mutating func loadBody(_ health: HealthStore, start: Date, end: Date) throws {
    let nights = Dictionary(
      try health.sleepNights(from: to.adding(days: -29).start(in: calendar), through: to).map { ($0.day, $0) },
      uniquingKeysWith: { a, _ in a })
    self.nights = (0..<30).map { to.adding(days: $0 - 29) }.map { ($0, nights[$0]) }
    func means(_ kind: VitalKind) throws -> [(day: LocalDate, value: Double)] {
      var sums: [LocalDate: (Double, Int)] = [:]
      for reading in try health.vitalReadings(kind, from: start, to: end) {
        let day = LocalDate(reading.at, in: calendar)
        let (sum, n) = sums[day] ?? (0, 0)
        sums[day] = (sum + reading.value, n + 1)
      }
      return sums.map { ($0.key, $0.value.0 / Double($0.value.1)) }.sorted { $0.day < $1.day }
    }
    for kind in VitalKind.allCases {
      let readings = try health.vitalReadings(kind, from: start, to: end)
      guard let last = readings.last else { continue }
      var measured = Measurement(kind: kind, diastolic: kind == .bloodPressure ? .init() : nil, latest: last)
      for reading in readings {
        measured.value.add(reading.value)
        if let lower = reading.diastolic { measured.diastolic?.add(lower) }
      }
      measurements.append(measured)
    }
    weight = try means(.weight)
    restingHeartRate = try means(.restingHeartRate)
    bloodPressure = try health.vitalReadings(.bloodPressure, from: start, to: end).compactMap { reading in
      reading.diastolic.map { (LocalDate(reading.at, in: calendar), reading.value, $0) }
    }
  }
}

extension ReportData {
  /// The results of the five years up to `to`, added or measured at a donation, by test.
  mutating func loadLabs(_ labs: LabStore, _ donations: DonationStore) throws {
    let since = to.adding(months: -60, in: calendar).start(in: calendar)
    let before = to.adding(days: 1).start(in: calendar)
    let results = try labs.list(
      from: since, before: before, donations: donations.measured(from: since, before: before))
    let byTest = Dictionary(grouping: results, by: \.test)
    self.labs = labs.catalogue.tests.compactMap { test in
      byTest[test.id].map { LabRow(test: test, results: $0.reversed()) }
    }
  }
}
