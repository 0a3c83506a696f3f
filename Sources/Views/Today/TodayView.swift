import Core
import Foundation
import Records
import Storage

/// What plain `vital` shows a logged-in person: what is due now across every feature. Each
/// part is empty when there is nothing to say, so a new account sees a short screen.
public struct TodayView: Sendable {
  /// Doses of today already due or due within the hour, not yet taken or skipped.
  public struct DueDose: Equatable, Sendable {
    public let medicationID: String
    public let medication: String
    public let scheduledAt: Date
    public let overdue: Bool
  }

  public struct CycleDay: Equatable, Sendable {
    /// Day 1 is the first day of the last logged period.
    public let day: Int
    public let nextPeriod: LocalDate?
    public let ongoing: Bool
    /// The period expected after the last one is this late (none logged since).
    public var late: CyclePrediction.Late?
  }

  public let doses: [DueDose]
  public let cycle: CycleDay?
  public let goals: [Goal.Progress]
  public let donor: DonorStatus
  public let reminders: [Reminder]

  /// How far ahead a dose counts as due now.
  public static let dueAhead: TimeInterval = 3600

  /// Reads what each feature holds for `now`. Reads only; the totals behind goal progress are
  /// brought up to date first, as every read of them is.
  public static func gather(db: Database, account: Account, profile: Profile, now: Date, calendar: Calendar) throws
    -> TodayView
  {
    let scope = AccountScope(db: db, account: account, now: now, calendar: calendar)
    let today = scope.today
    let startOfDay = today.start(in: calendar)

    let meds = MedicationStore(scope)
    var doses: [DueDose] = []
    for medication in try meds.list() {
      for dose in try meds.dosesDue(medication, from: startOfDay, to: now.addingTimeInterval(dueAhead))
      where dose.status == .pending || dose.status == .missed {
        doses.append(
          DueDose(
            medicationID: medication.id, medication: medication.name, scheduledAt: dose.due, overdue: dose.due < now))
      }
    }
    doses.sort { ($0.scheduledAt, $0.medication) < ($1.scheduledAt, $1.medication) }

    let periodStore = PeriodStore(scope)
    let periods = try periodStore.list()
    var cycle: CycleDay?
    if let last = periods.max(by: { $0.start < $1.start }), last.start <= today {
      let prediction = try? CyclePrediction.predict(
        periods: periods, pauses: periodStore.pauses(), today: today, count: 1)
      cycle = CycleDay(
        day: last.start.days(to: today) + 1, nextPeriod: prediction?.next.first?.start,
        ongoing: last.end.map { $0 >= today } ?? true, late: prediction?.late)
    }

    let goalStore = GoalStore(scope)
    let goals = try goalStore.list().isEmpty ? [] : try goalStore.progress(on: today).goals

    let donor = try DonationStore(scope).status(profile: profile, periodStarts: periods.map(\.start))
    let engine = ReminderEngine(scope)
    let reminders = Array(try engine.reminders(from: now, to: now.addingTimeInterval(14 * 86_400)).prefix(3))
    return TodayView(doses: doses, cycle: cycle, goals: goals, donor: donor, reminders: reminders)
  }
}
