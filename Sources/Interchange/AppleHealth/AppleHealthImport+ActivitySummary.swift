import Core
import Foundation
import Records
import Storage

/// A day's Apple Watch rings, as the export's ActivitySummary elements give them.
extension AppleHealthImport {
  func activitySummary(_ attributes: XMLStream.Attributes) throws {
    var record = HealthStore.ActivitySummary()
    var date: LocalDate?
    attributes.forEach { key, value in
      let name = String(cString: key)
      if name == "dateComponents" {
        date = LocalDate(String(cString: value))
      } else if let ring = Self.activityRings[name], let number = Double(String(cString: value)) {
        record.rings[keyPath: ring] = number
      }
    }
    summary.records += 1
    guard let date else {
      summary.skipped += 1
      return
    }
    summary.byType["ActivitySummary", default: 0] += 1
    (record.id, record.date) = ("as-\(date)", date)
    try add(
      .activitySummary, id: record.id,
      HealthStore.ActivitySummary.shape.values(record, HealthStore.ActivitySummary.synced))
  }

  /// Both generations of the export's names: `appleMoveTime*` and `appleMoveMinutes*` alike.
  static let activityRings: [String: WritableKeyPath<HealthStore.ActivityDay, Double?> & Sendable] = [
    "activeEnergyBurned": \.moveKcal, "activeEnergyBurnedGoal": \.moveKcalGoal, "appleMoveTime": \.moveMinutes,
    "appleMoveTimeGoal": \.moveMinutesGoal, "appleMoveMinutes": \.moveMinutes,
    "appleMoveMinutesGoal": \.moveMinutesGoal, "appleExerciseTime": \.exerciseMinutes,
    "appleExerciseTimeGoal": \.exerciseGoal, "appleStandHours": \.standHours, "appleStandHoursGoal": \.standGoal,
  ]
}
