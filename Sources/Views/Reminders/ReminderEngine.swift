import Core
import Foundation
import Records
import Storage

/// Gathers the reminders of every enabled source from the records as they are now: a
/// cancelled appointment or a removed medication simply has none.
public struct ReminderEngine: AccountScoped {

  public let scope: AccountScope

  public init(_ scope: AccountScope) { self.scope = scope }

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
    if enabled.contains(.temperature) { items += try temperatureItems(from: from, to: to) }
    return items.filter { item in
      item.alarms.contains { $0.at >= from && $0.at <= to } || (item.start >= from && item.start <= to)
    }
  }

  // MARK: Sources

  /// The scheduled appointment: 1 day before at the same local time (a calendar day, so it
  /// stays at 09:00 across a clock change) and 2 hours before.
  func donationItems() throws -> [CalendarItem] {
    let store = DonationStore(scope)
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

  /// Each scheduled dose not yet taken or skipped, at its due time (a late dose's shift
  /// included); a snoozed dose once more; a refill once the stock reached the threshold; and an
  /// expiry date 14 days ahead, at 09:00.
  func medicationItems(from: Date, to: Date) throws -> [CalendarItem] {
    let store = MedicationStore(scope)
    var items: [CalendarItem] = []
    for m in try store.list() {
      for dose in try store.dosesDue(m, from: from, to: to.addingTimeInterval(1))
      where dose.status == .pending || dose.status == .missed {
        items.append(
          CalendarItem(
            uid: Self.doseUID(m, dose.scheduledAt), source: .medication, title: "Take \(m.name)",
            body: Self.doseBody(dose.dose), location: nil,
            when: .instant(dose.due, duration: 600), alarms: [.init(at: dose.due, trigger: "PT0M")]))
      }
      if let snooze = m.snooze, try store.isOpen(m, scheduledAt: snooze.scheduledAt) {
        items.append(
          CalendarItem(
            uid: "snooze-\(m.id)-\(Int64(snooze.scheduledAt.timeIntervalSince1970))", source: .medication,
            title: "Take \(m.name) (snoozed)", body: "Snoozed dose", location: nil,
            when: .instant(snooze.until, duration: 600), alarms: [.init(at: snooze.until, trigger: "PT0M")]))
      }
      if let since = try store.refillDueSince(m) {
        items.append(
          CalendarItem(
            uid: "refill-\(m.id)-\(Int64((m.stockSetAt ?? m.since).timeIntervalSince1970))", source: .medication,
            title: "Refill \(m.name)", body: "The stock is low; refill and count it with 'vital meds refill'.",
            location: nil, when: .instant(since, duration: 600), alarms: [.init(at: since, trigger: "PT0M")]))
      }
      if let expires = m.expires {
        let day = expires.adding(days: -Self.expiryNotice)
        let at = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 9))!
        items.append(
          CalendarItem(
            uid: "expires-\(m.id)-\(expires)", source: .medication, title: "\(m.name) expires on \(expires)",
            body: "Get a new pack before \(expires).", location: nil, when: .instant(at, duration: 600),
            alarms: [.init(at: at, trigger: "PT0M")]))
      }
    }
    return items
  }

  /// Days before a medication's expiry date that it reminds.
  public static let expiryNotice = 14

  static func doseUID(_ m: Medication, _ scheduledAt: Date) -> String {
    "dose-\(m.id)-\(Int64(scheduledAt.timeIntervalSince1970))"
  }

  /// 08:00 local, three days before each predicted period start; none while paused.
  func cycleItems(to: Date) throws -> [CalendarItem] {
    let store = PeriodStore(scope)
    let periods = try store.list()
    guard !periods.isEmpty else { return [] }
    let horizon = LocalDate(now, in: calendar).days(to: LocalDate(to, in: calendar))
    let prediction = try CyclePrediction.predict(
      periods: periods, pauses: store.pauses(), today: LocalDate(now, in: calendar),
      count: max(1, min(24, horizon / 20 + 2)))
    return prediction.next.map { next in
      let day = next.start.adding(days: -3)
      let at = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 8))!
      return CalendarItem(
        uid: "cycle-\(next.start)", source: .cycle, title: "Period expected around \(next.start)",
        body: "Predicted start \(next.start) (\(next.startRange.lowerBound) to \(next.startRange.upperBound)).",
        location: nil, when: .day(next.start), alarms: [.init(at: at, trigger: "-P2DT16H")])
    }
  }

  /// The morning temperature, every day at the chosen local time, except on days in a cycle
  /// pause and on days whose temperature is already noted.
  func temperatureItems(from: Date, to: Date) throws -> [CalendarItem] {
    guard let at = try settings.time(.temperature), to >= from else { return [] }
    let parts = at.split(separator: ":").compactMap { Int($0) }
    let store = PeriodStore(scope)
    let pauses = try store.pauses()
    let first = LocalDate(from, in: calendar)
    let last = LocalDate(to, in: calendar)
    let noted = Set(try store.notes(from: first, to: last).filter { $0.temperature != nil }.map(\.date))
    var items: [CalendarItem] = []
    var day = first
    while day <= last {
      defer { day = day.adding(days: 1) }
      guard !noted.contains(day), !pauses.contains(where: { $0.contains(day) }),
        let time = calendar.date(
          from: DateComponents(year: day.year, month: day.month, day: day.day, hour: parts[0], minute: parts[1]))
      else { continue }
      items.append(
        CalendarItem(
          uid: "temperature-\(day)", source: .temperature, title: "Morning temperature",
          body: "Take your temperature before getting up, then 'vital cycle note --temperature 36.5'.",
          location: nil, when: .instant(time, duration: 0), alarms: [.init(at: time, trigger: "P0D")]))
    }
    return items
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
