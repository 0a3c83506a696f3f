import Core
import Foundation

extension Medication {
  /// `08:00,20:00`, `08:00 Europe/Berlin`, or `as needed, every 6h, max 3/day`.
  public var scheduleText: String {
    if asNeeded {
      let limits = [minInterval.map { "every \(TimeSpan.text($0))" }, maxPerDay.map { "max \($0)/day" }]
      return (["as needed"] + limits.compactMap { $0 }).joined(separator: ", ")
    }
    let times = times.map(\.description).joined(separator: ",")
    return zone.map { "\(times) \($0)" } ?? times
  }

  /// `mon,thu`, or `daily`.
  public var daysText: String { days.map { $0.map(\.name).joined(separator: ",") } ?? "daily" }
}

extension MedicationStore {
  /// The medication as `vital meds show` prints it and its page shows it.
  public func sheet(_ m: Medication, _ human: HumanText) throws -> RecordSheet {
    var sheet = RecordSheet()
    sheet.add("id", m.id)
    sheet.add("name", m.name)
    sheet.add("schedule", m.scheduleText)
    if !m.asNeeded { sheet.add("days", m.daysText) }
    sheet.add("dose", m.dose)
    if let steps = m.steps {
      sheet.add("steps", TaperStep.text(steps) + " from \(m.stepsStart?.description ?? "-")")
      sheet.add("after the steps", m.thenKeep ? "keep the last dose" : "stop")
      sheet.add("dose today", doseToday(m) ?? "none")
    }
    if let gap = m.minGap { sheet.add("min gap", TimeSpan.text(gap)) }
    if let expires = m.expires { sheet.add("expires", expires.description) }
    if let pause = pausedNow(m) { sheet.add("paused until", human.time(pause.until)) }
    let next = try self.next(m)
    sheet.add("next", next.map(human.time) ?? (m.asNeeded ? "now" : "-"))
    let stock = try currentStock(m)
    sheet.add("stock", stock.map(String.init))
    sheet.add("refill_at", m.stock == nil ? nil : String(m.refillThreshold))
    if let last = try stockLastsUntil(m) { sheet.add("stock lasts until", human.time(last)) }
    return sheet
  }

  /// The last scheduled dose the stock in hand covers, counting from now: when it runs out.
  /// Nil without a stock, for a medication taken as needed, or when it lasts beyond a year
  /// (or beyond the schedule's end).
  public func stockLastsUntil(_ m: Medication) throws -> Date? {
    guard !m.asNeeded, let stock = try currentStock(m) else { return nil }
    guard stock > 0 else { return now }
    // A dose already taken or skipped (early, or skipped ahead) takes nothing more from the stock.
    let recorded = try events(m.id)
    let ahead = m.scheduled(from: now, to: now.addingTimeInterval(366 * 86_400), calendar: calendar)
      .filter { recorded[$0] == nil }
    return ahead.count >= stock ? ahead[stock - 1] : nil
  }
}
