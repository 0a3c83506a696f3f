import Core
import Foundation

extension Medication {
  /// The scheduled dose times in `[from, to)`, never before `since`. Times are local wall-clock
  /// times, so a dose stays at 08:00 across a daylight-saving change; a time the clocks skip is
  /// taken at the first instant after the gap.
  public func scheduled(from: Date, to: Date, calendar: Calendar) -> [Date] {
    let lower = max(from, since)
    guard lower < to else { return [] }
    var result: [Date] = []
    var day = LocalDate(lower, in: calendar).adding(days: -1)
    let last = LocalDate(to, in: calendar)
    while day <= last {
      if days?.contains(where: { $0.rawValue == day.weekday }) ?? true {
        for time in times {
          let components = DateComponents(
            year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute)
          guard let at = calendar.date(from: components) else { continue }
          if at >= lower, at < to { result.append(at) }
        }
      }
      day = day.adding(days: 1)
    }
    return result.sorted()
  }

  /// When a dose with no take or skip counts as missed: at the next scheduled dose, or 12 hours
  /// after it, whichever comes first.
  public func missedAfter(_ scheduled: Date, calendar: Calendar) -> Date {
    let limit = scheduled.addingTimeInterval(MedicationStore.window)
    let next = self.scheduled(from: scheduled.addingTimeInterval(1), to: limit, calendar: calendar).first
    return min(next ?? limit, limit)
  }
}
