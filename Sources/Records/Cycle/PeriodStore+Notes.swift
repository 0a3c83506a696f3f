import Core
import Cryptography
import Foundation
import Replication
import Storage

extension PeriodStore {
  /// What `note` did to the periods: flow on a day next to a period joins it, flow on a day
  /// apart from every period starts one.
  public enum PeriodChange: String, Sendable { case started, extended }

  /// Sets the given fields of day `date`'s note, in one transaction with the period the flow
  /// makes or extends. A day in the future is refused; so is a change that leaves nothing.
  @discardableResult
  public func note(
    _ date: LocalDate, _ change: CycleNoteChange
  ) throws -> (note: CycleNote, period: Period?, change: PeriodChange?) {
    guard date <= today else { throw CycleError.inTheFuture(date.description) }
    guard !change.isEmpty else { throw CycleError.emptyNote }
    return try db.transaction { _ in
      let old = try note(on: date)
      let new = try change.applied(to: old ?? CycleNote(date: date))
      // Only what this change set travels: another device noting other fields of the same day
      // keeps them. A new note names its date and the fields it has, not the empty ones nor a
      // temperature that is not left out (that would undo another device's exclusion).
      let before = old.map(Self.fields) ?? Self.fields(CycleNote(date: date)).merging(["date": .null]) { _, b in b }
      let changed = Self.fields(new).filter { before[$0.key] != $0.value }
      if old != nil || changed.keys.contains(where: { $0 != "date" }) {
        if !changed.isEmpty { try replica.write(.cycleNote, id: new.id, changed) }
      }
      guard let flow = new.flow, flow.isBleeding, change.flow != nil else { return (new, nil, nil) }
      let (period, made) = try periodForFlow(on: date)
      return (new, period, made)
    }
  }

  /// The period that flow on `date` belongs to: the one covering it, one ending the day before
  /// (extended) or starting the day after (moved a day earlier), else a new one of that day.
  func periodForFlow(on date: LocalDate) throws -> (Period, PeriodChange?) {
    let periods = try list()
    if let covering = periods.first(where: { $0.start <= date && date <= ($0.end ?? today) }) {
      return (covering, nil)
    }
    if let before = periods.first(where: { $0.end == date.adding(days: -1) }) {
      var period = before
      period.end = date
      try check(period, among: periods)
      try replica.write(.period, id: period.id, Period.shape.changes(from: before, to: period, Period.synced))
      return (period, .extended)
    }
    if let after = periods.first(where: { $0.start == date.adding(days: 1) }) {
      var period = after
      period.start = date
      try check(period, among: periods)
      try replica.write(.period, id: period.id, Period.shape.changes(from: after, to: period, Period.synced))
      return (period, .extended)
    }
    return (try log(start: date, end: date, id: Self.flowPeriodID(date)), .started)
  }

  /// The sympto-thermal evaluation of the cycle under way: from the last period's first day to
  /// today. Nil before any period.
  public func currentSigns() throws -> (start: LocalDate, signs: SymptoThermal)? {
    guard let last = try list().last(where: { $0.start <= today }) else { return nil }
    return (last.start, SymptoThermal.evaluate(try notes(from: last.start, to: today)))
  }

  /// A period started by flow is named by its first day: two devices noting flow on the same
  /// day apart from any period start one period, not two.
  static func flowPeriodID(_ start: LocalDate) -> String { Crypto.nameUUID("vital:period-from-flow:\(start)") }

  public func note(on date: LocalDate) throws -> CycleNote? {
    try notes(from: date, to: date).first
  }

  /// Notes between two days (both included), oldest first.
  public func notes(from: LocalDate? = nil, to: LocalDate? = nil) throws -> [CycleNote] {
    try db.query(
      """
      SELECT \(Self.notes.list()) FROM cycle_note
      WHERE account_id = ? AND date >= ? AND date <= ? ORDER BY date
      """, account.id, (from ?? LocalDate(ordinal: 0)).description, (to ?? .distantFuture).description,
      row: CycleNote.shape.read
    ).compactMap { $0 }
  }

  static func fields(_ note: CycleNote) -> [String: DatabaseValue] {
    CycleNote.shape.fields(note, CycleNote.synced)
  }
}
