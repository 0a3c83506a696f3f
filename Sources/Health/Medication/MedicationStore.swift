import Core
import Foundation
import Replication
import Storage

/// One account's medications and dose events. Every write goes through the Replica.
public struct MedicationStore {
  let db: Database
  let account: Account
  let now: Date
  let calendar: Calendar

  /// How far from a scheduled time a take or skip may be, and how long an unrecorded dose
  /// waits before it counts as missed.
  public static let window: TimeInterval = 12 * 3600

  public init(db: Database, account: Account, now: Date, calendar: Calendar) {
    self.db = db
    self.account = account
    self.now = now
    self.calendar = calendar
  }

  public func list() throws -> [Medication] {
    try db.query(
      """
      SELECT \(Self.medications.list()) FROM medication
      WHERE account_id = ? ORDER BY name COLLATE NOCASE, id
      """, account.id
    ) { row in
      let times = try row.get("times", as: String.self).split(separator: ",").compactMap { TimeOfDay(String($0)) }
      let days = try row.get("days", as: String?.self).map {
        $0.split(separator: ",").compactMap { Weekday(name: String($0)) }
      }
      return Medication(
        id: try row.get("id"), name: try row.get("name"), times: times, days: days, dose: try row.get("dose"),
        stock: try row.get("stock"), stockSetAt: try row.get("stock_set_at"), refillAt: try row.get("refill_at"),
        since: try row.get("since"))
    }
  }

  /// A medication by name (any case) or by an unambiguous id prefix of at least 4 characters.
  public func find(_ key: String) throws -> Medication {
    let all = try list()
    if let byName = all.first(where: { $0.name.lowercased() == key.lowercased() }) { return byName }
    let id: String
    do {
      id = try Self.lookup.id(key, account: account.id, in: db)
    } catch RecordLookup.Failure.notFound {
      throw MedicationError.notFound(key)
    }
    guard let found = all.first(where: { $0.id == id }) else { throw MedicationError.notFound(key) }
    return found
  }

  static let lookup = RecordLookup(kind: "medication", listCommand: "vital meds list", table: "medication")

  // MARK: Writes

  public func add(
    name: String, times: [String], days: [String]?, dose: String?, stock: Int?, refillAt: Int?
  ) throws -> Medication {
    let name = try Self.checkedName(name)
    let parsedTimes = try Self.parseTimes(times)
    let parsedDays = try days.map(Self.parseDays)
    for n in [stock, refillAt].compactMap({ $0 }) where !(0...100_000).contains(n) { throw MedicationError.badStock }
    let medication = Medication(
      name: name, times: parsedTimes, days: parsedDays, dose: dose?.trimmingCharacters(in: .whitespaces),
      stock: stock, stockSetAt: stock == nil ? nil : now, refillAt: refillAt, since: now)
    try db.transaction { _ in
      if try list().contains(where: { $0.name.lowercased() == name.lowercased() }) {
        throw MedicationError.duplicateName(name)
      }
      try replica.write(.medication, id: medication.id, Self.fields(medication))
    }
    return medication
  }

  /// Removes the medication and with it its schedule and reminders; recorded doses stay in the history.
  @discardableResult
  public func remove(_ key: String) throws -> Medication {
    let medication = try find(key)
    try replica.delete(.medication, id: medication.id)
    return medication
  }

  /// Counts the stock afresh: `stock` from now on.
  @discardableResult
  public func refill(_ key: String, stock: Int) throws -> Medication {
    guard (0...100_000).contains(stock) else { throw MedicationError.badStock }
    var medication = try find(key)
    medication.stock = stock
    medication.stockSetAt = now
    try replica.write(
      .medication, id: medication.id, ["stock": stock.databaseValue, "stock_set_at": now.databaseValue])
    return medication
  }

  public struct Taken: Sendable {
    public let dose: Dose
    public let stock: Int?
    public let refillDue: Bool
  }

  /// Records a scheduled dose as taken and lowers the stock: the one at `slot` that day, else
  /// the earliest one of that day already due and still open, else the nearest, if open.
  public func take(_ key: String, at: Date?, slot: TimeOfDay? = nil) throws -> Taken {
    let medication = try find(key)
    let dose = try record(medication, status: .taken, at: at ?? now, slot: slot)
    let stock = try currentStock(medication)
    return Taken(dose: dose, stock: stock, refillDue: stock.map { $0 <= medication.refillThreshold } ?? false)
  }

  public func skip(_ key: String, at: Date?, slot: TimeOfDay? = nil) throws -> Dose {
    try record(try find(key), status: .skipped, at: at ?? now, slot: slot)
  }

  /// Which scheduled dose a take or skip at `at` is for. A take at 14:30 between doses at
  /// 08:00 and 20:00 is the morning's, if that is still open: people catch up on a dose more
  /// often than they take the next one early, and the later one would leave the morning missed.
  func slot(for medication: Medication, at: Date, named slot: TimeOfDay?) throws -> Date {
    let recorded = try events(medication.id)
    func distance(_ t: Date) -> TimeInterval { abs(t.timeIntervalSince(at)) }
    let candidates = medication.scheduled(
      from: at.addingTimeInterval(-Self.window), to: at.addingTimeInterval(Self.window + 1), calendar: calendar
    ).filter { distance($0) <= Self.window }
    let day = LocalDate(at, in: calendar)
    func stamp(_ t: Date) -> String { ISO8601.string(from: t, timeZone: calendar.timeZone) }
    if let slot {
      guard
        let named = candidates.first(where: {
          let c = calendar.dateComponents([.hour, .minute], from: $0)
          return LocalDate($0, in: calendar) == day && c.hour == slot.hour && c.minute == slot.minute
        })
      else { throw MedicationError.noSuchDose(medication.name, slot: slot.description, times: medication.times) }
      if let existing = recorded[named] {
        throw MedicationError.alreadyRecorded(status: existing.status.rawValue, scheduled: stamp(named))
      }
      return named
    }
    // A dose of that day already due and still open comes first, the earliest of them;
    // otherwise the nearest dose, which must then be open (a second take right after the
    // first is a slip, not the next dose twelve hours early).
    if let due = candidates.filter({ recorded[$0] == nil && $0 <= at && LocalDate($0, in: calendar) == day }).min() {
      return due
    }
    guard let nearest = candidates.min(by: { (distance($0), $0) < (distance($1), $1) }) else {
      throw MedicationError.noDoseNear(medication.name)
    }
    if let existing = recorded[nearest] {
      throw MedicationError.alreadyRecorded(status: existing.status.rawValue, scheduled: stamp(nearest))
    }
    return nearest
  }

  private func record(_ medication: Medication, status: DoseStatus, at: Date, slot: TimeOfDay?) throws -> Dose {
    guard at <= now else { throw MedicationError.inTheFuture }
    let nearest = try self.slot(for: medication, at: at, named: slot)
    let dose = Dose(
      medicationID: medication.id, medication: medication.name, dose: medication.dose, scheduledAt: nearest,
      status: status, at: at)
    try replica.write(
      .dose, id: Dose.id(medication: medication.id, scheduledAt: nearest),
      [
        "medication_id": .text(medication.id), "medication": .text(medication.name),
        "dose": medication.dose.databaseValue, "scheduled_at": nearest.databaseValue,
        "status": .text(status.rawValue), "at": at.databaseValue,
      ])
    return dose
  }

  // MARK: Reads

  /// The stock now: the counted stock less the doses taken since it was counted (never below 0).
  public func currentStock(_ medication: Medication) throws -> Int? {
    guard let stock = medication.stock else { return nil }
    let since = medication.stockSetAt ?? medication.since
    let taken =
      try db.scalar(
        Int.self,
        "SELECT count(*) FROM dose WHERE account_id = ? AND medication_id = ? AND status = 'taken' AND at >= ?",
        account.id, medication.id, since) ?? 0
    return max(0, stock - taken)
  }

  /// When the stock fell to the refill threshold since it was last counted; nil while above it.
  public func refillDueSince(_ medication: Medication) throws -> Date? {
    guard let stock = medication.stock else { return nil }
    let counted = medication.stockSetAt ?? medication.since
    let needed = stock - medication.refillThreshold
    if needed <= 0 { return counted }
    let takes = try db.query(
      """
      SELECT at FROM dose WHERE account_id = ? AND medication_id = ? AND status = 'taken' AND at >= ?
      ORDER BY at LIMIT ?
      """, account.id, medication.id, counted, needed
    ) { try $0.get(0, as: Date.self) }
    return takes.count == needed ? takes.last : nil
  }

  /// Recorded takes and skips of one medication, by scheduled time.
  func events(_ medicationID: String) throws -> [Date: Dose] {
    let rows = try db.query(
      """
      SELECT \(Self.doseColumns) FROM dose
      WHERE account_id = ? AND medication_id = ?
      """, account.id, medicationID, row: Self.dose)
    return Dictionary(rows.map { ($0.scheduledAt, $0) }, uniquingKeysWith: { a, _ in a })
  }

  /// Every scheduled dose of `medication` in `[from, to)` with what became of it.
  public func doses(_ medication: Medication, from: Date, to: Date) throws -> [Dose] {
    let recorded = try events(medication.id)
    return medication.scheduled(from: from, to: to, calendar: calendar).map { t in
      if let event = recorded[t] { return event }
      let status: DoseStatus = medication.missedAfter(t, calendar: calendar) <= now ? .missed : .pending
      return Dose(
        medicationID: medication.id, medication: medication.name, dose: medication.dose, scheduledAt: t,
        status: status, at: nil)
    }
  }

  public struct Stats: Equatable, Sendable {
    public let name: String
    public let scheduled: Int
    public let taken: Int
    public let skipped: Int
    public let missed: Int
    /// Taken over scheduled doses due in the window; nil when none was due.
    public var adherence: Double? { scheduled == 0 ? nil : Double(taken) / Double(scheduled) }
  }

  /// Per medication, the doses due over the last `days` local days (today included).
  public func stats(days: Int) throws -> [Stats] {
    guard (1...3660).contains(days) else { throw MedicationError.badDays }
    let from = LocalDate(now, in: calendar).adding(days: -(days - 1), in: calendar).start(in: calendar)
    return try list().map { m in
      let due = try doses(m, from: from, to: now.addingTimeInterval(0.001))
      func count(_ s: DoseStatus) -> Int { due.filter { $0.status == s }.count }
      return Stats(
        name: m.name, scheduled: due.count, taken: count(.taken), skipped: count(.skipped), missed: count(.missed))
    }
  }

  /// Every dose event: recorded takes and skips (also of removed medications) and the doses
  /// missed so far, by scheduled time.
  public func history() throws -> [Dose] {
    var all = try db.query(
      "SELECT \(Self.doseColumns) FROM dose WHERE account_id = ?", account.id,
      row: Self.dose)
    for m in try list() {
      all += try doses(m, from: m.since, to: now).filter { $0.status == .missed }
    }
    return all.sorted { ($0.scheduledAt, $0.medication) < ($1.scheduledAt, $1.medication) }
  }

  static let doseColumns = doses.list(["medication_id", "medication", "dose", "scheduled_at", "status", "at"])

  static func dose(_ row: Row) throws -> Dose {
    Dose(
      medicationID: try row.get("medication_id"), medication: try row.get("medication"), dose: try row.get("dose"),
      scheduledAt: try row.get("scheduled_at"), status: DoseStatus(rawValue: try row.get("status")) ?? .taken,
      at: try row.get("at"))
  }

  static func fields(_ m: Medication) -> [String: DatabaseValue] {
    [
      "name": .text(m.name), "times": .text(m.times.map(\.description).joined(separator: ",")),
      "days": m.days.map { $0.map(\.name).joined(separator: ",") }.databaseValue, "dose": m.dose.databaseValue,
      "stock": m.stock.databaseValue, "stock_set_at": m.stockSetAt.databaseValue,
      "refill_at": m.refillAt.databaseValue, "since": m.since.databaseValue,
    ]
  }

  var replica: Replica { Replica(db: db, accountID: account.id, now: now) }
}
