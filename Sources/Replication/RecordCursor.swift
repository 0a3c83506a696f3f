import Foundation
import Storage

/// Reads rows of a table by key for a push, walking on through the key's order while the keys
/// asked for follow each other there, as an import's outbox entries do: a step to the next row
/// instead of a search from the top of the index for each (a first push of 100,000 imported
/// records spent a fifth of its time on those searches). Reads the database as it stands:
/// nothing may write it while the cursor is in use (`Replica.pending` only reads).
final class RecordCursor {
  private let lookup: Statement
  /// Nil when no index gives the rows in key order (SQLite would sort them for each search).
  private let walk: Statement?
  private let keyParameter: Int32
  private var state = State.idle

  private enum State {
    /// Not on a row: the next read searches for its key.
    case idle
    /// On a row not read yet.
    case on
    /// On a row already read: the next read steps first.
    case read
  }

  /// How many rows a read steps past, looking for its key, before it searches instead.
  private static let stepsBeforeSearch = 4

  /// Rows of `table` where each column of `filter` holds its value, by `key`; each row read as
  /// `key` then `columns` (named as SQL has them, quoted where need be).
  init(
    _ table: String, key: String, columns: [String], filter: [(column: String, value: DatabaseValue)],
    in db: Database
  ) throws {
    let selected = ([key] + columns).joined(separator: ", ")
    let matching = filter.enumerated().map { "\($1.column) = ?\($0 + 1)" }.joined(separator: " AND ")
    keyParameter = Int32(filter.count + 1)
    let head = "SELECT \(selected) FROM \(table) WHERE \(matching) AND \(key)"
    // Statements of its own: another dataset's cursor has the same text, and a cached statement
    // would be reset and bound again under this one.
    lookup = try db.uncachedStatement("\(head) = ?\(keyParameter)")
    let walkSQL = "\(head) >= ?\(keyParameter) ORDER BY \(key)"
    let arguments: [(any DatabaseValueConvertible)?] = filter.map(\.value) + [DatabaseValue.text("")]
    let plan = try db.query("EXPLAIN QUERY PLAN " + walkSQL, arguments: arguments) { try $0.get(3, as: String.self) }
    walk =
      plan.contains { $0.contains("TEMP B-TREE") || !$0.contains("USING") } ? nil : try db.uncachedStatement(walkSQL)
    for (index, (_, value)) in filter.enumerated() {
      try lookup.bind(value, at: Int32(index + 1))
      try walk?.bind(value, at: Int32(index + 1))
    }
  }

  /// What `read` makes of the row whose key is `key` (its columns: the key, then `columns`), or
  /// nil when there is none.
  func row<T>(_ key: String, _ read: (Row) throws -> T) throws -> T? {
    guard let walk else {
      try lookup.bind(.text(key), at: keyParameter)
      defer { lookup.reset() }
      return try lookup.step() ? try read(lookup.row) : nil
    }
    var key = key
    return try key.withUTF8 { wanted in
      var steps = 0
      while true {
        switch state {
        case .idle:
          walk.reset()
          try walk.bind(.text(String(decoding: wanted, as: UTF8.self)), at: keyParameter)
          guard try walk.step() else { return nil }
          // The first row at or after the key: the one asked for when its key is the key.
          guard Self.compare(walk.row, wanted) == 0 else {
            state = .on
            return nil
          }
          state = .read
          return try read(walk.row)
        case .read:
          guard try walk.step() else {
            state = .idle
            continue
          }
          state = .on
        case .on:
          let order = Self.compare(walk.row, wanted)
          if order == 0 {
            state = .read
            return try read(walk.row)
          }
          if order < 0, steps < Self.stepsBeforeSearch {
            steps += 1
            state = .read
          } else {
            state = .idle
          }
        }
      }
    }
  }

  /// The row's key against `wanted`, in SQLite's order (`TextOrder`).
  private static func compare(_ row: Row, _ wanted: UnsafeBufferPointer<UInt8>) -> Int {
    row.withUTF8(0) { key in key.map { TextOrder.compare($0, wanted) } ?? -1 }
  }
}
