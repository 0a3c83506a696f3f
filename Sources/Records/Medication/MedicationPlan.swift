import Core
import Foundation

/// One stretch of a medication's schedule: its times, days and dose (or taper steps) from
/// `since` until `until`. An edit ends the plan in force and starts a new one, so doses before
/// the edit keep the times and the dose they were scheduled with.
public struct MedicationPlan: Equatable, Sendable {
  public var times: [TimeOfDay]
  /// nil: every day.
  public var days: [Weekday]?
  public var dose: String?
  /// A taper: the dose changes step by step from `stepsStart`.
  public var steps: [TaperStep]?
  public var stepsStart: LocalDate?
  /// After the last step: keep its dose (true) or end the schedule (false).
  public var thenKeep: Bool
  /// An IANA zone the times are pinned to; nil: the times are local wherever the user is.
  public var zone: String?
  public var since: Date
  /// When an edit ended this plan; nil for the plan in force.
  public var until: Date?

  public init(
    times: [TimeOfDay], days: [Weekday]? = nil, dose: String? = nil, steps: [TaperStep]? = nil,
    stepsStart: LocalDate? = nil, thenKeep: Bool = false, zone: String? = nil, since: Date, until: Date? = nil
  ) {
    self.times = times
    self.days = days
    self.dose = dose
    self.steps = steps
    self.stepsStart = stepsStart
    self.thenKeep = thenKeep
    self.zone = zone
    self.since = since
    self.until = until
  }

  /// A scheduled dose time of this plan.
  public struct Slot: Equatable, Sendable {
    public let at: Date
    /// The day it belongs to in the plan's zone: a late dose shifts the later ones of this day.
    public let day: LocalDate
    /// Its wall-clock time, as `take --dose HH:MM` names it.
    public let time: TimeOfDay
    public let dose: String?
    /// A time earlier on the day the medication was added than the moment it was added: a dose
    /// that may already have been taken, so it can be recorded but is never missed.
    public var opening = false
  }

  /// The calendar whose wall clock the times follow: the pinned zone's, else `local`.
  public func calendar(local: Calendar) -> Calendar {
    guard let zone, let timeZone = TimeZone(identifier: zone) else { return local }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar
  }

  /// The dose in force on `day`, and whether the plan has any dose that day (a finished taper
  /// that stops has none).
  public func dose(on day: LocalDate) -> (scheduled: Bool, dose: String?) {
    guard let steps, !steps.isEmpty, let start = stepsStart else { return (true, dose) }
    let offset = day.ordinal - start.ordinal
    if offset < 0 { return (false, nil) }
    var end = 0
    for step in steps {
      end += step.days
      if offset < end { return (true, step.dose) }
    }
    return thenKeep ? (true, steps.last!.dose) : (false, nil)
  }

  /// Which stretch of one dose `day` falls in (a taper step, or 0 without steps) and the first
  /// day after it (nil: it does not end by itself). A calendar repeats one event per stretch.
  public func stretch(on day: LocalDate) -> (index: Int, end: LocalDate?) {
    guard let steps, !steps.isEmpty, let start = stepsStart else { return (0, nil) }
    var end = start
    for (i, step) in steps.enumerated() {
      end = end.adding(days: step.days)
      if day < end { return (i, i == steps.count - 1 && thenKeep ? nil : end) }
    }
    return (steps.count - 1, thenKeep ? nil : end)
  }

  /// The first day without a dose after a taper that stops; nil when the plan has no end of its own.
  public var lastDay: LocalDate? {
    guard let steps, let start = stepsStart, !thenKeep else { return nil }
    return start.adding(days: steps.reduce(0) { $0 + $1.days } - 1)
  }

  /// Dose times in `[from, to)` within this plan's stretch. Times are wall-clock times of the
  /// plan's calendar, so a dose stays at 08:00 across a daylight-saving change; a time the
  /// clocks skip is taken at the first instant after the gap. With `opening`, the times of
  /// the day the plan starts that come before its start are there too, marked.
  public func slots(from: Date, to: Date, local: Calendar, opening: Bool = false) -> [Slot] {
    let calendar = calendar(local: local)
    let start = opening ? LocalDate(since, in: calendar).start(in: calendar) : since
    let lower = max(from, start)
    let upper = min(to, until ?? to)
    guard lower < upper else { return [] }
    var result: [Slot] = []
    var day = LocalDate(lower, in: calendar).adding(days: -1)
    let last = LocalDate(upper, in: calendar)
    if let end = lastDay, end < day { return [] }
    while day <= last {
      let inForce = dose(on: day)
      if inForce.scheduled, days?.contains(where: { $0.rawValue == day.weekday }) ?? true {
        for time in times {
          let components = DateComponents(
            year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute)
          guard let at = calendar.date(from: components) else { continue }
          if at >= lower, at < upper {
            result.append(Slot(at: at, day: day, time: time, dose: inForce.dose, opening: at < since))
          }
        }
      }
      day = day.adding(days: 1)
    }
    return result.sorted { $0.at < $1.at }
  }
}
