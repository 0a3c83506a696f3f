import Core
import Foundation
import Storage

/// Gathers the reminders of every enabled source from the records as they are now: a
/// cancelled appointment or a removed medication simply has none.
public struct ReminderEngine {
  let db: Database
  let account: Account
  let now: Date
  let calendar: Calendar

  public init(db: Database, account: Account, now: Date, calendar: Calendar) {
    self.db = db
    self.account = account
    self.now = now
    self.calendar = calendar
  }

  public var settings: ReminderSettings { ReminderSettings(db: db, account: account) }

  /// Reminders whose time falls in `[from, to]`, in time order.
  public func reminders(from: Date, to: Date) throws -> [Reminder] {
    try items(from: from, to: to).flatMap(\.reminders).filter { $0.at >= from && $0.at <= to }
      .sorted { ($0.at, $0.ref) < ($1.at, $1.ref) }
  }

  /// Items that start or have an alarm in `[from, to]`.
  public func items(from: Date, to: Date) throws -> [CalendarItem] {
    let enabled = try settings.enabled()
    var items: [CalendarItem] = []
    if enabled.contains(.donation) { items += try donationItems() }
    if enabled.contains(.medication) { items += try medicationItems(from: from, to: to) }
    if enabled.contains(.cycle) { items += try cycleItems(to: to) }
    if enabled.contains(.area) { items += try areaItems(from: from, to: to) }
    return items.filter { item in
      item.alarms.contains { $0.at >= from && $0.at <= to } || (item.start >= from && item.start <= to)
    }
  }

  // MARK: Sources

  /// The scheduled appointment: 1 day before at the same local time (a calendar day, so it
  /// stays at 09:00 across a clock change) and 2 hours before.
  func donationItems() throws -> [CalendarItem] {
    let store = DonationStore(db: db, account: account, now: now, calendar: calendar)
    guard let d = try store.scheduled(), let at = d.scheduledAt else { return [] }
    let dayBefore = calendar.date(byAdding: .day, value: -1, to: at)!
    return [
      CalendarItem(
        uid: "donation-\(d.id)", source: .donation, title: "Blood donation (\(d.kind.label))",
        body: "Appointment at \(d.place). Eat well and drink plenty beforehand.", location: d.place,
        when: .instant(at, duration: 3600),
        alarms: [.init(at: dayBefore, trigger: "-P1D"), .init(at: at.addingTimeInterval(-7200), trigger: "-PT2H")])
    ]
  }

  /// Each scheduled dose not yet taken or skipped, and a refill once the stock reached the threshold.
  func medicationItems(from: Date, to: Date) throws -> [CalendarItem] {
    let store = MedicationStore(db: db, account: account, now: now, calendar: calendar)
    var items: [CalendarItem] = []
    for m in try store.list() {
      let doses = try store.doses(m, from: from, to: to.addingTimeInterval(1))
      for dose in doses where dose.status == .pending || dose.status == .missed {
        items.append(
          CalendarItem(
            uid: "dose-\(m.id)-\(Int64(dose.scheduledAt.timeIntervalSince1970))", source: .medication,
            title: "Take \(m.name)", body: m.dose.map { "Dose: \($0)" } ?? "Scheduled dose",
            location: nil, when: .instant(dose.scheduledAt, duration: 600),
            alarms: [.init(at: dose.scheduledAt, trigger: "PT0M")]))
      }
      if let since = try store.refillDueSince(m) {
        items.append(
          CalendarItem(
            uid: "refill-\(m.id)-\(Int64((m.stockSetAt ?? m.since).timeIntervalSince1970))", source: .medication,
            title: "Refill \(m.name)", body: "The stock is low; refill and count it with 'vital meds refill'.",
            location: nil, when: .instant(since, duration: 600), alarms: [.init(at: since, trigger: "PT0M")]))
      }
    }
    return items
  }

  /// 08:00 local, three days before each predicted period start.
  func cycleItems(to: Date) throws -> [CalendarItem] {
    let store = PeriodStore(db: db, account: account, now: now, calendar: calendar)
    let periods = try store.list()
    guard !periods.isEmpty else { return [] }
    let horizon = LocalDate(now, in: calendar).days(to: LocalDate(to, in: calendar))
    let prediction = try CyclePrediction.predict(
      periods: periods, today: LocalDate(now, in: calendar), count: max(1, min(24, horizon / 20 + 2)))
    return prediction.next.map { next in
      let day = next.start.adding(days: -3)
      let at = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 8))!
      return CalendarItem(
        uid: "cycle-\(next.start)", source: .cycle, title: "Period expected around \(next.start)",
        body: "Predicted start \(next.start) (\(next.startRange.lowerBound) to \(next.startRange.upperBound)).",
        location: nil, when: .day(next.start), alarms: [.init(at: at, trigger: "-P2DT16H")])
    }
  }

  /// Phase changes that `vital area watch check` noticed at watched places.
  func areaItems(from: Date, to: Date) throws -> [CalendarItem] {
    try AreaStore(db: db, account: account, now: now).notices(from: from, to: to).map { n in
      let to = n.to ?? "unknown"
      return CalendarItem(
        uid: "area-\(n.id)", source: .area, title: "\(n.label): phase now \(to)",
        body: "The incidence phase at \(n.label) changed from \(n.from ?? "unknown") to \(to).", location: nil,
        when: .instant(n.at, duration: 0), alarms: [.init(at: n.at, trigger: "PT0M")])
    }
  }
}
