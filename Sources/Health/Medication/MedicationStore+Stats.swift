import Core
import Foundation
import Storage

/// Adherence for scheduled medications, doses per day for those taken as needed, and the
/// history of every dose.
extension MedicationStore {
  public struct Stats: Equatable, Sendable {
    public let name: String
    public let scheduled: Int
    public let taken: Int
    public let skipped: Int
    public let missed: Int
    /// For a medication taken as needed: doses per local day of the window, oldest first.
    public var perDay: [DayCount]?
    /// As-needed doses taken past their limits.
    public var overLimit = 0
    /// Taken over scheduled doses due in the window; nil when none was due or for doses taken as needed.
    public var adherence: Double? { scheduled == 0 || perDay != nil ? nil : Double(taken) / Double(scheduled) }
  }

  public struct DayCount: Equatable, Sendable {
    public let date: LocalDate
    public let count: Int
  }

  /// Per medication, the doses due over the last `days` local days (today included).
  public func stats(days: Int) throws -> [Stats] {
    guard (1...3660).contains(days) else { throw MedicationError.badDays }
    let first = LocalDate(now, in: calendar).adding(days: -(days - 1), in: calendar)
    let from = first.start(in: calendar)
    return try list().map { m in
      if m.asNeeded {
        let takes = try recordedDoses(m.id, from: from, to: now.addingTimeInterval(0.001))
        var counts: [LocalDate: Int] = [:]
        for t in takes { counts[LocalDate(t.scheduledAt, in: calendar), default: 0] += 1 }
        let perDay = (0..<days).map { i in
          let day = first.adding(days: i, in: calendar)
          return DayCount(date: day, count: counts[day] ?? 0)
        }
        var s = Stats(name: m.name, scheduled: 0, taken: takes.count, skipped: 0, missed: 0)
        s.perDay = perDay
        s.overLimit = takes.filter(\.overLimit).count
        return s
      }
      let due = try doses(m, from: from, to: now.addingTimeInterval(0.001))
      func count(_ s: DoseStatus) -> Int { due.filter { $0.status == s }.count }
      return Stats(
        name: m.name, scheduled: due.count, taken: count(.taken), skipped: count(.skipped), missed: count(.missed))
    }
  }

  /// Takes and skips of one medication recorded for `[from, to)`, by scheduled time.
  func recordedDoses(_ medicationID: String, from: Date, to: Date) throws -> [Dose] {
    try db.query(
      """
      SELECT \(Self.doseColumns) FROM dose
      WHERE account_id = ? AND medication_id = ? AND scheduled_at >= ? AND scheduled_at < ?
      ORDER BY scheduled_at
      """, account.id, medicationID, from, to, row: Self.dose)
  }

  /// Every dose event: recorded takes and skips (also of removed medications) and the doses
  /// missed so far, by scheduled time; each with the dose in force that day.
  public func history() throws -> [Dose] {
    var all = try db.query(
      "SELECT \(Self.doseColumns) FROM dose WHERE account_id = ?", account.id,
      row: Self.dose)
    for m in try list() {
      guard let first = m.plans.first?.since else { continue }
      all += try doses(m, from: first, to: now).filter { $0.status == .missed }
    }
    return all.sorted { ($0.scheduledAt, $0.medication) < ($1.scheduledAt, $1.medication) }
  }
}
