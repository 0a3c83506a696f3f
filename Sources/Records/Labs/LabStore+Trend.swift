import Core
import Foundation
import Storage

/// One point of a test's trend: a result (added, or measured at a donation), or one day of a
/// measurement that came from Apple Health or Gadgetbridge, as that day's mean.
public struct LabTrendPoint: Sendable {
  /// The result; for an imported day one made of its mean, with no id, at the day's start.
  public let result: LabResult
  /// An imported day's sources (`Apple Watch`, `Withings`) and how many readings it had; nil
  /// for a result.
  public let sources: [String]?
  public let readings: Int

  public var isImported: Bool { sources != nil }
}

extension LabStore {
  /// The measurements Apple Health and Gadgetbridge also give: what a person takes by hand and
  /// what a scale, cuff or watch sent are the same quantity in the same unit. A pulse is read
  /// against the resting heart rate (one a day), not the watch's every beat in a run.
  public static func importedKind(of test: LabTest) -> VitalKind? {
    ["weight": VitalKind.weight, "blood-pressure": .bloodPressure, "pulse": .restingHeartRate, "spo2": .spo2][test.id]
  }

  /// A test's points from `from` on, oldest first: its results, those measured at `donations`
  /// (`DonationStore.measured`), and `imported`, the days of the test's `importedKind`
  /// (`HealthStore.dailyMeans`).
  public func trend(
    _ test: LabTest, from: Date, donations: [Donation] = [], imported: [HealthStore.DailyMean] = []
  ) throws -> [LabTrendPoint] {
    var points = try list(test: test.id, from: from, donations: donations).reversed().map {
      LabTrendPoint(result: $0, sources: nil, readings: 1)
    }
    for day in imported {
      let result = LabResult(
        id: "", test: test.id, value: day.value, second: day.second, at: day.day.start(in: calendar))
      points.append(LabTrendPoint(result: result, sources: day.sources, readings: day.readings))
    }
    return points.sorted { ($0.result.at, $0.isImported ? 1 : 0) < ($1.result.at, $1.isImported ? 1 : 0) }
  }
}
