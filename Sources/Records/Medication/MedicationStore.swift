import Core
import Foundation
import Replication
import Storage

/// One account's medications and dose events. Every write goes through the Replica.
public struct MedicationStore: AccountScoped {

  /// How far from a scheduled time a take or skip may be, and how long an unrecorded dose
  /// waits before it counts as missed.
  public static let window: TimeInterval = 12 * 3600

  public let scope: AccountScope

  public init(_ scope: AccountScope) { self.scope = scope }

  public func list() throws -> [Medication] {
    try db.query(
      """
      SELECT \(Self.medications.list()) FROM medication
      WHERE account_id = ? ORDER BY name COLLATE NOCASE, id
      """, account.id, row: Self.medication)
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

  /// Adds a medication: on a schedule (`times`, or taper `steps`) or as needed.
  public func add(name: String, _ details: Changes) throws -> Medication {
    var details = details
    details.name = name
    var medication = Medication(
      name: "", times: [], days: nil, dose: nil, stock: nil, stockSetAt: nil, refillAt: nil, since: now)
    medication = try apply(details, to: medication, adding: true)
    try db.transaction { _ in
      if try list().contains(where: { $0.name.lowercased() == medication.name.lowercased() }) {
        throw MedicationError.duplicateName(medication.name)
      }
      try replica.write(.medication, id: medication.id, Self.fields(medication))
    }
    return medication
  }

  /// A medication on a fixed schedule.
  public func add(
    name: String, times: [String], days: [String]?, dose: String?, stock: Int?, refillAt: Int?
  ) throws -> Medication {
    var details = Changes(times: times, days: .some(days), dose: .some(dose), refillAt: .some(refillAt))
    details.stock = stock
    return try add(name: name, details)
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
    try replica.write(.medication, id: medication.id, Medication.shape.fields(medication, of: [\.stock, \.stockSetAt]))
    return medication
  }

  public struct Taken: Sendable {
    public let dose: Dose
    public let stock: Int?
    public let refillDue: Bool
    /// How far the later doses of that day moved (asked for, or for the minimum gap).
    public let shifted: TimeInterval?
  }

  /// Records a dose as taken and lowers the stock. A scheduled medication's dose is the one at
  /// `slot` that day, else the earliest one of that day already due and still open, else the
  /// nearest, if open; `shift` moves that day's later doses by as much as this one is late. An
  /// as-needed dose is checked against its limits (`force` records it anyway, marked).
  public func take(
    _ key: String, at: Date?, slot: TimeOfDay? = nil, shift: Bool = false, force: Bool = false
  ) throws -> Taken {
    let medication = try find(key)
    let at = at ?? now
    guard at <= now else { throw MedicationError.inTheFuture }
    let dose: Dose
    if medication.asNeeded {
      dose = try takeAsNeeded(medication, at: at, force: force)
    } else {
      let scheduled = try self.slot(for: medication, at: at, named: slot)
      let delay = try self.shift(for: medication, scheduled: scheduled, at: at, asked: shift)
      dose = try record(medication, scheduled, status: .taken, at: at, shift: delay)
    }
    let stock = try currentStock(medication)
    return Taken(
      dose: dose, stock: stock, refillDue: stock.map { $0 <= medication.refillThreshold } ?? false,
      shifted: dose.shift)
  }

  public func skip(_ key: String, at: Date?, slot: TimeOfDay? = nil) throws -> Dose {
    let medication = try find(key)
    let at = at ?? now
    guard at <= now else { throw MedicationError.inTheFuture }
    guard !medication.asNeeded else { throw MedicationError.asNeededHasNoSchedule(medication.name) }
    return try record(
      medication, try self.slot(for: medication, at: at, named: slot), status: .skipped, at: at, shift: nil)
  }

  private func record(
    _ medication: Medication, _ scheduled: Scheduled, status: DoseStatus, at: Date, shift: TimeInterval?
  ) throws -> Dose {
    let dose = Dose(
      medicationID: medication.id, medication: medication.name, dose: scheduled.slot.dose,
      scheduledAt: scheduled.slot.at, status: status, at: at, due: scheduled.dose.due, shift: shift)
    try replica.write(.dose, id: Dose.id(medication: medication.id, scheduledAt: dose.scheduledAt), doseFields(dose))
    return dose
  }

  /// How far a take at `at` moves the later doses of its day: by its delay when asked, or when
  /// the next dose would otherwise come sooner than the medication's minimum gap (then at least
  /// far enough to keep the gap). nil: nothing moves.
  func shift(for m: Medication, scheduled: Scheduled, at: Date, asked: Bool) throws -> TimeInterval? {
    let delay = at.timeIntervalSince(scheduled.dose.due)
    let later = try schedule(m, from: scheduled.slot.at.addingTimeInterval(1), to: at.addingTimeInterval(Self.dayReach))
      .filter { $0.slot.day == scheduled.slot.day }
    if asked {
      guard delay > 0 else { throw MedicationError.notLate(m.name) }
      return later.isEmpty ? nil : delay.rounded()
    }
    guard let gap = m.minGap, let next = later.first, delay > 0 else { return nil }
    let short = gap - next.dose.due.timeIntervalSince(at)
    return short > 0 ? max(delay, short).rounded() : nil
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
  package func events(_ medicationID: String) throws -> [Date: Dose] {
    let rows = try db.query(
      """
      SELECT \(Self.doseColumns) FROM dose
      WHERE account_id = ? AND medication_id = ?
      """, account.id, medicationID, row: Self.dose)
    return Dictionary(rows.map { ($0.scheduledAt, $0) }, uniquingKeysWith: { a, _ in a })
  }

}
