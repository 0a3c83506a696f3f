import Foundation
import Storage

/// Recovering from a clock that ran ahead. A device whose clock was set two days (or a year)
/// ahead stamped its changes two days ahead, and its clock never goes back: the server refuses
/// them until real time catches up. Those changes never left the device (the server refused
/// them), so nothing anywhere depends on their clocks: they can be stamped again.
extension Replica {
  /// Stamps every unsent change whose clock is ahead of `serverTime` again, from `serverTime`
  /// on and in the same order, in its field clocks, the outbox and the undo journal; the
  /// device's clock continues from the last new reading. Returns how many readings changed.
  @discardableResult
  public func restamp(after serverTime: Date) throws -> Int {
    try db.transaction { db in
      let node = try node()
      let floor = HLC(
        milliseconds: Int64((serverTime.timeIntervalSince1970 * 1000).rounded(.down)), counter: 0, node: node)
      let ahead = try db.query(
        "SELECT DISTINCT hlc FROM sync_outbox WHERE account_id = ? AND hlc > ? ORDER BY hlc", accountID,
        floor.description
      ) { try $0.get(0, as: String.self) }.compactMap(HLC.init)
      guard !ahead.isEmpty else { return 0 }
      let rows = try db.query(
        "SELECT DISTINCT dataset, row_id FROM sync_outbox WHERE account_id = ? AND hlc > ?", accountID,
        floor.description
      ) { (try $0.get(0, as: String.self), try $0.get(1, as: String.self)) }
      var clocks: [(dataset: String, row: String, text: String)] = []
      for (dataset, row) in rows {
        if let text = try db.scalar(
          String.self, "SELECT clocks FROM sync_row WHERE account_id = ? AND dataset = ? AND row_id = ?", accountID,
          dataset, row)
        {
          clocks.append((dataset, row, text))
        }
      }
      // New readings start after the server's time and after every other clock these records
      // hold (an edit the server took while the clock was less far ahead must not win over a
      // later one), oldest first, one each: the order of the changes is kept.
      let aheadText = Set(ahead.map(\.description))
      let others = clocks.flatMap { $0.text.split(separator: ";") }.compactMap { pair -> HLC? in
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, !aheadText.contains(String(parts[1])) else { return nil }
        return HLC(String(parts[1]))
      }
      var next = max(floor, others.max().map { HLC.next(after: $0, now: serverTime, node: node) } ?? floor)
      var mapping: [String: HLC] = [:]
      for reading in ahead {
        mapping[reading.description] = next
        next = HLC.next(after: next, now: serverTime, node: node)
      }
      for (dataset, row, text) in clocks {
        let restamped = text.split(separator: ";").map { pair -> String in
          let parts = pair.split(separator: "=", maxSplits: 1)
          guard parts.count == 2, let new = mapping[String(parts[1])] else { return String(pair) }
          return "\(parts[0])=\(new)"
        }.joined(separator: ";")
        try db.execute(
          "UPDATE sync_row SET clocks = ? WHERE account_id = ? AND dataset = ? AND row_id = ?", restamped, accountID,
          dataset, row)
      }
      for (old, new) in mapping {
        try db.execute(
          "UPDATE sync_outbox SET hlc = ? WHERE account_id = ? AND hlc = ?", new.description, accountID, old)
        try db.execute("UPDATE change_step SET hlc = ? WHERE hlc = ?", new.description, old)
      }
      let last = mapping.values.max()!
      try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('hlc_last', ?)", last.description)
      return mapping.count
    }
  }
}
