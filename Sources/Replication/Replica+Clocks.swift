import Storage

/// Each record's field clocks, one row of `sync_row` per record.
extension Replica {
  /// Field clocks are kept as `field=hlc;field=hlc`, and as `*=hlc` when every field of the
  /// dataset has the same clock (a record written in one go): cheap to read and write per row.
  func clocks(_ dataset: Dataset, _ id: String) throws -> [String: HLC] {
    guard let text = try storedClocks(dataset, id) else { return [:] }
    return Self.clocks(of: dataset, from: text)
  }

  /// Record `id`'s clocks as `sync_row` keeps them, or nil for a record never seen here.
  func storedClocks(_ dataset: Dataset, _ id: String) throws -> String? {
    try db.scalar(
      String.self, "SELECT clocks FROM sync_row WHERE account_id = ? AND dataset = ? AND row_id = ?", accountID,
      dataset.name, id)
  }

  static func clocks(of dataset: Dataset, from text: String) -> [String: HLC] {
    var clocks: [String: HLC] = [:]
    for pair in text.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, let hlc = HLC(String(parts[1])) else { continue }
      if parts[0] == "*" {
        for field in dataset.fields where clocks[field] == nil { clocks[field] = hlc }
      } else {
        clocks[String(parts[0])] = hlc
      }
    }
    return clocks
  }

  func save(_ dataset: Dataset, _ id: String, _ clocks: [String: HLC]) throws {
    try db.execute(
      """
      INSERT INTO sync_row (account_id, dataset, row_id, clocks) VALUES (?, ?, ?, ?)
      ON CONFLICT (account_id, dataset, row_id) DO UPDATE SET clocks = excluded.clocks
      """, accountID, dataset.name, id, Self.clocksText(dataset, clocks))
  }

  /// Clocks as `sync_row.clocks` keeps them (see `clocks`).
  static func clocksText(_ dataset: Dataset, _ clocks: [String: HLC]) -> String {
    var entries = clocks
    var prefix: [String] = []
    if let first = clocks[dataset.fields[0]], dataset.fields.allSatisfy({ clocks[$0] == first }) {
      // Most records come whole, every field with one clock.
      if clocks.count == dataset.fields.count { return "*=\(first)" }
      prefix = ["*=\(first)"]
      for field in dataset.fields { entries[field] = nil }
    }
    // A record's fields mostly share a clock: its text is made once, not once per field.
    var last: (clock: HLC, text: String)?
    let parts = entries.sorted { $0.key < $1.key }.map { entry -> String in
      if last?.clock != entry.value { last = (entry.value, entry.value.description) }
      return entry.key + "=" + last!.text
    }
    return (prefix + parts).joined(separator: ";")
  }

  /// `clocksText` of a record whose fields are at `columns` (ordered by name), written straight
  /// from them: no sorting, and one text for a record whose fields share a clock (most of a
  /// first sync), made once for the many records that share that clock too.
  static func clocksText(_ dataset: Dataset, _ columns: [Int], _ record: Incoming, shared: inout SharedText) -> String {
    if columns.count == dataset.fields.count, let one = record.oneClock { return shared.text(one) }
    var result = ""
    for column in columns {
      let text = record.slots[column]!.hlc.description
      if result.isEmpty { result.reserveCapacity(columns.count * (text.utf8.count + 16)) } else { result += ";" }
      result += dataset.fields[column]
      result += "="
      result += text
    }
    return result
  }

  /// `*=hlc` for the clock before, remembered: a page of records pushed by one import all
  /// share one.
  struct SharedText {
    private var last: (hlc: HLC, text: String)?

    mutating func text(_ hlc: HLC) -> String {
      if let last, last.hlc == hlc { return last.text }
      let text = "*=\(hlc)"
      last = (hlc, text)
      return text
    }
  }

  /// The clock of a record whose fields all have one (`*=hlc`, nothing else), read once for the
  /// many records an import stamps with the same reading.
  struct SharedClock {
    /// The last clocks text read, and its one clock (nil: not of that form). Records imported
    /// together have the same text, read as one String (`Row.text(_:sameAs:)`): comparing it
    /// to the last one costs a pointer compare, where checking its form cost a first push 2,700
    /// instructions a record.
    private var last: (text: String, hlc: HLC?)?

    mutating func reading(_ text: String) -> HLC? {
      if let last, last.text == text { return last.hlc }
      let hlc = Self.one(text)
      last = (text, hlc)
      return hlc
    }

    private static func one(_ text: String) -> HLC? {
      // Bytes, not `contains(";")`: Foundation's substring search through NSString cost more
      // than the rest of reading the record.
      guard text.hasPrefix("*="), !text.utf8.contains(UInt8(ascii: ";")) else { return nil }
      return HLC(String(text.dropFirst(2)))
    }
  }
}
