import Core
import Foundation
import Records

/// How `vital donor status` and plain `vital` say where a donor stands, in the same words.
extension DonorStatus {
  /// `today 14:00 (in 3 hours)`, `tomorrow 09:30`, `Thu 3 Dec 16:00 (in 7 days)`, or
  /// `today 09:00, missed`: never "(today)" for an appointment hours gone.
  public func when(_ human: HumanText) -> String? {
    guard let appointment, let at = appointment.scheduledAt, let daysLeft else { return nil }
    if missed { return "\(human.time(at)), missed" }
    if overdue { return "\(human.time(at)), under way" }
    switch daysLeft {
    case 0:
      let minutes = Int(at.timeIntervalSince(human.now) / 60)
      return human.time(at)
        + (minutes < 60
          ? " (in \(HumanText.count(minutes, "minute")))" : " (in \(HumanText.count(minutes / 60, "hour")))")
    case 1: return human.time(at)
    default: return "\(human.time(at)) (in \(HumanText.count(daysLeft, "day")))"
    }
  }

  /// What to do about a missed appointment: the commands that move, record or cancel it.
  public var missedAdvice: String? {
    guard missed, let appointment else { return nil }
    let id = HumanText.shortID(appointment.id)
    return
      "You missed this appointment: move it with 'vital donor reschedule \(id) --at TIME', record it with 'vital donor complete \(id)' if you went, or 'vital donor cancel \(id)'."
  }

  /// `now`, `from Tue 15 Dec`, or what is missing to tell.
  public func mayDonate(_ human: HumanText) -> String {
    if !eligibility.missing.isEmpty {
      return "not known yet: set your \(eligibility.missing.joined(separator: ", ")) (vital profile set)"
    }
    guard let next = nextEligible else { return "see 'vital donor eligibility'" }
    return next <= LocalDate(human.now, in: human.calendar) ? "now" : "from \(human.day(next))"
  }
}
