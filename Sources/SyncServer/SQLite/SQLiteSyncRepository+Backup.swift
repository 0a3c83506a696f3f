import Foundation
import Storage

extension SQLiteSyncRepository {
  public func backup(to writer: BackupWriter) throws {
    // One read transaction is one snapshot in WAL mode: the server goes on writing meanwhile.
    try db.transaction(.deferred) { db in
      for table in BackupTable.allCases {
        let columns = table.columns
        try db.forEachRow(
          "SELECT \(table.columnNames.joined(separator: ", ")) FROM \(table.rawValue) ORDER BY rowid"
        ) { row in
          try writer.row(
            table, try columns.indices.map { try Self.backupValue(row.get($0, as: DatabaseValue.self), columns[$0]) })
        }
      }
    }
  }

  public func restore(from reader: BackupReader) throws {
    try db.transaction(.immediate) { db in
      guard try db.scalar(Int.self, "SELECT count(*) FROM users") == 0 else {
        throw BackupError.storeNotEmpty("this server's SQLite database")
      }
      let statements = try Dictionary(
        uniqueKeysWithValues: BackupTable.allCases.map { table in
          let names = table.columnNames
          return (
            table,
            try db.statement(
              "INSERT INTO \(table.rawValue) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
            )
          )
        })
      while let (table, values) = try reader.next() {
        try statements[table]!.execute(values.map(Self.databaseValue))
      }
      // Sequence numbers go on from the highest restored, under a new epoch: every device's
      // cursor is refused once, and the device sends and fetches everything again.
      try db.execute("UPDATE sequence SET value = (SELECT coalesce(max(seq), 0) FROM records) WHERE id = 1")
      try db.execute("UPDATE server_meta SET value = lower(hex(randomblob(8))) WHERE key = 'epoch'")
    }
  }

  static func backupValue(_ value: DatabaseValue, _ column: BackupTable.Column) throws -> BackupValue {
    switch (value, column.kind) {
    case (.null, _): return .null
    case (.text(let text), .text): return .text(text)
    case (.integer(let number), .int): return .int(number)
    case (.integer(let number), .bool): return .bool(number != 0)
    case (.text(let text), .date):
      guard let date = ISO8601.date(from: text) else { throw BackupError.cannotRead(column.name, reason: "not a time") }
      return .date(date)
    case (.blob(let data), .bytes): return .bytes(data)
    default: throw BackupError.cannotRead(column.name, reason: "an unexpected type of value")
    }
  }

  static func databaseValue(_ value: BackupValue) -> (any DatabaseValueConvertible)? {
    switch value {
    case .text(let text): text
    case .int(let number): number
    case .bool(let flag): flag
    case .date(let date): date
    case .bytes(let data): data
    case .null: nil
    }
  }
}
