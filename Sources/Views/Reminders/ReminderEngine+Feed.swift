import Core
import Foundation
import Records

/// The calendar file's view of the reminders: each medication time becomes one repeating event
/// per plan and taper step, so a calendar app shows the doses past the window it was given.
extension ReminderEngine {
  /// The items of `[from, to]` with the medication doses folded into series. Expanded, the series
  /// give exactly the dose reminders `reminders(from:to:)` lists: an occurrence that was taken,
  /// skipped, paused or moved is excluded, and a moved dose stays a one-off event at its time.
  public func feed(from: Date, to: Date) throws -> CalendarFeed {
    let all = try items(from: from, to: to)
    guard try settings.enabled().contains(.medication) else { return CalendarFeed(series: [], items: all) }
    let byUID = Dictionary(all.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
    var folded: Set<String> = []
    var series: [CalendarSeries] = []
    let store = MedicationStore(scope)
    for m in try store.list() where !m.asNeeded {
      let recorded = try store.events(m.id)
      for plan in m.plans {
        let zone = plan.calendar(local: calendar)
        let slots = plan.slots(from: from, to: to.addingTimeInterval(1), local: calendar)
        let groups = Dictionary(grouping: slots) { Stretch(time: $0.time, index: plan.stretch(on: $0.day).index) }
        for (key, group) in groups {
          var excluded: [LocalDate] = []
          for slot in group {
            let uid = Self.doseUID(m, slot.at)
            let at = WallClock.instant(slot.day, slot.time, in: zone.timeZone)
            if let item = byUID[uid], item.start == at, slot.at == at, item.body == Self.doseBody(slot.dose) {
              folded.insert(uid)
            } else {
              excluded.append(slot.day)
            }
          }
          let first = group[0]
          let stretchEnd = plan.stretch(on: first.day).end?.start(in: zone)
          let end = [plan.until, stretchEnd].compactMap { $0 }.min()
          // Past the window only what is known already: paused days and doses recorded ahead.
          let later = plan.slots(
            from: to.addingTimeInterval(1), to: Self.horizon(m, recorded, after: to), local: calendar
          )
          .filter { $0.time == key.time && plan.stretch(on: $0.day).index == key.index }
          .filter { slot in recorded[slot.at] != nil || m.pauses.contains { $0.contains(slot.at) } }
          series.append(
            CalendarSeries(
              uid:
                "doses-\(m.id)-\(Int64(plan.since.timeIntervalSince1970))-\(key.time.hour * 100 + key.time.minute)-\(key.index)",
              source: .medication, title: "Take \(m.name)", body: Self.doseBody(first.dose),
              zone: zone.timeZone.identifier, first: first.day, time: key.time, weekdays: plan.days, end: end,
              excluded: excluded + later.map(\.day), duration: 600))
        }
      }
    }
    return CalendarFeed(
      series: series.sorted { ($0.first, $0.time, $0.uid) < ($1.first, $1.time, $1.uid) },
      items: all.filter { !folded.contains($0.uid) })
  }

  private struct Stretch: Hashable {
    let time: TimeOfDay
    let index: Int
  }

  static func doseBody(_ dose: String?) -> String { dose.map { "Dose: \($0)" } ?? "Scheduled dose" }

  /// How far past `to` the known pauses and recorded doses reach, two years at most.
  private static func horizon(_ m: Medication, _ recorded: [Date: Dose], after to: Date) -> Date {
    let known = (m.pauses.map(\.until) + recorded.keys).filter { $0 > to }.max() ?? to
    return min(known, to.addingTimeInterval(2 * 366 * 86_400)).addingTimeInterval(1)
  }
}
