import Foundation
import Storage

/// Which UTC days changed in a dataset whose rows cover stretches of time. Every write path of
/// `Replica` (local writes, deletes, bulk inserts, merges from other devices) notes them, so a
/// cache built from the rows never misses a change, whoever made it.
extension Replica {
  /// The UTC days noted as changed in `dataset` (days since 1970-01-01), oldest first.
  public func changedDays(_ dataset: Dataset) throws -> [Int64] {
    try db.query(
      "SELECT day FROM replica_changed_day WHERE account_id = ? AND dataset = ? ORDER BY day", accountID, dataset.name
    ) { row in
      let text = try row.get(0, as: String.self)
      return ISO8601.day(from: text).map { ISO8601.days(fromCivil: Int64($0.year), $0.month, $0.day) }
    }.compactMap { $0 }
  }

  /// Forgets the noted days once the cache has caught up with them.
  public func clearChangedDays(_ dataset: Dataset) throws {
    try db.execute("DELETE FROM replica_changed_day WHERE account_id = ? AND dataset = ?", accountID, dataset.name)
  }

  /// Notes `days` as changed.
  func noteChanged(_ dataset: Dataset, _ days: some Sequence<Int64>) throws {
    for day in days {
      try db.execute(
        "INSERT OR IGNORE INTO replica_changed_day (account_id, dataset, day) VALUES (?, ?, ?)", accountID,
        dataset.name, Self.dayText(day))
    }
  }

  /// The UTC days the stored row `id` covers now (none when there is no such row).
  func spanDays(_ dataset: Dataset, _ id: String) throws -> [Int64] {
    guard let span = dataset.span else { return [] }
    let bounds = try db.queryFirst(
      "SELECT \"\(span.start)\", \"\(span.end)\" FROM \(dataset.table) WHERE \(dataset.key) = ? AND account_id = ?",
      id, accountID, row: { row in (row[0], row[1]) })
    guard let bounds else { return [] }
    return Self.days(start: bounds.0, end: bounds.1)
  }

  /// Day numbers (since 1970-01-01, UTC) from the start's day to the end's. A start that does
  /// not read as an instant covers no day; an end that does not, or comes first, covers only
  /// the start's. Capped at a century, against nonsense spans.
  static func days(start: DatabaseValue, end: DatabaseValue) -> [Int64] {
    guard case .text(let startText) = start, let from = dayNumber(startText) else { return [] }
    var to = from
    if case .text(let endText) = end, let last = dayNumber(endText), last > from { to = min(last, from + 36_525) }
    return Array(from...to)
  }

  /// The UTC day of stored instant text: its first ten characters when it ends in `Z`, else
  /// the instant read whole.
  static func dayNumber(_ text: String) -> Int64? {
    if text.utf8.count >= 20, text.utf8.last == UInt8(ascii: "Z"),
      let (y, m, d) = ISO8601.day(from: String(text.prefix(10)))
    {
      return ISO8601.days(fromCivil: Int64(y), m, d)
    }
    guard let date = ISO8601.date(from: text) else { return nil }
    return Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))
  }

  /// Whether `value` is instant text in UTC on `day` (`YYYY-MM-DD`): a check that costs no parse.
  static func isUTC(_ value: DatabaseValue, on day: String) -> Bool {
    guard case .text(let text) = value, !day.isEmpty else { return false }
    return text.utf8.count >= 20 && text.utf8.last == UInt8(ascii: "Z") && text.utf8.starts(with: day.utf8)
  }

  static func dayText(_ day: Int64) -> String {
    let (y, m, d) = ISO8601.civil(fromDays: day)
    return String(format: "%04d-%02d-%02d", Int(y), m, d)
  }
}
