import Core
import Foundation
import Replication
import Storage

extension PeriodStore {
  static let lookup = RecordLookup(kind: "period", listCommand: "vital cycle list", table: "period")

  /// A period by its id (or an unambiguous prefix), or by its first day (`2026-10-03`).
  public func find(_ key: String) throws -> Period {
    let periods = try list()
    if let day = LocalDate(key) {
      guard let period = periods.first(where: { $0.start == day }) else {
        throw CycleError.notFound(start: day.description)
      }
      return period
    }
    let id = try Self.lookup.id(key, account: account.id, in: db)
    guard let period = periods.first(where: { $0.id == id }) else { throw CycleError.notFound(start: key) }
    return period
  }

  /// Moves a period's start or end (`end: .some(nil)` makes it ongoing again). Refused, with
  /// nothing written, when the result would overlap another period or be in the future.
  public func edit(_ key: String, start: LocalDate?, end: LocalDate??) throws -> Period {
    try db.transaction { _ in
      let old = try find(key)
      var period = old
      if let start { period.start = start }
      if let end { period.end = end }
      try check(period, among: try list())
      let fields = Period.shape.changes(from: old, to: period, Period.synced)
      if !fields.isEmpty { try replica.write(.period, id: period.id, fields) }
      return period
    }
  }

  /// Deletes one period ('vital undo' brings it back).
  @discardableResult
  public func delete(_ key: String) throws -> Period {
    let period = try find(key)
    try replica.delete(.period, id: period.id)
    return period
  }
}
