import Core
import Foundation

/// Where a donor stands today: the next appointment and the calendar days to it, what to do
/// now, and the first day they may donate the appointment's kind (whole blood without one).
/// `vital donor status` and plain `vital` both show this, so they never disagree.
public struct DonorStatus: Sendable {
  public let appointment: Donation?
  /// Calendar days from today to the appointment's day; negative once it has passed.
  public let daysLeft: Int?
  /// The appointment's time has passed and it is neither completed nor cancelled.
  public let overdue: Bool
  /// Over an hour past the appointment's time, still scheduled: it was missed, or went
  /// unrecorded. Until then it may be under way.
  public let missed: Bool
  public let advice: [String]
  public let kind: DonationKind
  public let eligibility: Eligibility

  public var nextEligible: LocalDate? { eligibility.nextEligible }
}

extension DonorStatus {
  /// Pure: `history` is newest first, as `DonationStore.recentHistory` gives it.
  public static func evaluate(
    history: [Donation], everDonated: Bool, profile: Profile, questionnaire: Questionnaire.Result?,
    periodStarts: [LocalDate] = [], now: Date, calendar: Calendar
  ) -> DonorStatus {
    let today = LocalDate(now, in: calendar)
    let appointment = history.filter { $0.status == .scheduled }.min {
      ($0.scheduledAt ?? .distantFuture) < ($1.scheduledAt ?? .distantFuture)
    }
    var daysLeft: Int?
    var overdue = false
    var missed = false
    var advice: [String] = []
    if let appointment, let at = appointment.scheduledAt {
      let left = today.days(to: LocalDate(at, in: calendar), in: calendar)
      daysLeft = left
      overdue = at < now
      missed = at.addingTimeInterval(missedAfter) < now
      if !overdue { advice += Advice.before(daysLeft: left, kind: appointment.kind) }
    }
    if let last = history.first(where: { $0.status == .completed }), let at = last.completedAt {
      advice += Advice.after(daysSince: LocalDate(at, in: calendar).days(to: today, in: calendar), kind: last.kind)
    }
    let kind = appointment?.kind ?? .wholeBlood
    let eligibility = Eligibility.evaluate(
      history: history, everDonated: everDonated, profile: profile, kind: kind, questionnaire: questionnaire,
      now: now, calendar: calendar
    ).afterPeriods(starting: periodStarts, today: today)
    // An appointment booked before a period began may now fall in the days after it.
    if let appointment, let at = appointment.scheduledAt, !overdue {
      let day = LocalDate(at, in: calendar)
      if let start = DonationStore.periodBlocking(day, periodStarts) {
        let free = start.adding(days: DonationStore.daysAfterPeriod + 1)
        advice.insert(
          "Your appointment falls within \(DonationStore.daysAfterPeriod + 1) days after the period that began \(start): move it to \(free) or later with 'vital donor reschedule --at TIME'.",
          at: 0)
      }
    }
    return DonorStatus(
      appointment: appointment, daysLeft: daysLeft, overdue: overdue, missed: missed, advice: advice, kind: kind,
      eligibility: eligibility)
  }

  /// How long after its time an appointment still counts as under way: a donation with its
  /// checks takes about an hour.
  public static let missedAfter: TimeInterval = 3600
}

extension DonationStore {
  /// The donor's status from what is stored (the last 400 days and the latest questionnaire)
  /// and what the cycle says: the days periods began, oldest first.
  public func status(profile: Profile, periodStarts: [LocalDate]) throws -> DonorStatus {
    let (history, ever) = try recentHistory()
    return DonorStatus.evaluate(
      history: history, everDonated: ever, profile: profile, questionnaire: try latestQuestionnaire(),
      periodStarts: periodStarts, now: now, calendar: calendar)
  }
}
