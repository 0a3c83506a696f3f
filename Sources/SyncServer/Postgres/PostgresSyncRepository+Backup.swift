import Foundation
import Logging
import NIOCore
import PostgresNIO

extension PostgresSyncRepository {
  public func backup(to writer: BackupWriter) async throws {
    let logger = self.logger
    try await client.withConnection { c in
      // One snapshot for every table, while other connections go on writing.
      try await c.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
      do {
        for table in BackupTable.allCases {
          let columns = table.columns
          let rows = try await c.query(
            PostgresQuery(unsafeSQL: "SELECT \(table.columnNames.joined(separator: ", ")) FROM \(table.rawValue)"),
            logger: logger)
          for try await row in rows {
            var values: [BackupValue] = []
            values.reserveCapacity(columns.count)
            for (cell, column) in zip(row, columns) { values.append(try Self.backupValue(cell, column)) }
            try writer.row(table, values)
          }
        }
        try await c.query("COMMIT", logger: logger)
      } catch {
        _ = try? await c.query("ROLLBACK", logger: logger)
        throw error
      }
    }
  }

  public func restore(from reader: BackupReader) async throws {
    let logger = self.logger
    try await transaction { c in
      for try await count in try await c.query("SELECT count(*) FROM users", logger: logger).decode(Int64.self)
      where count > 0 {
        throw BackupError.storeNotEmpty("this server's PostgreSQL database")
      }
      // Rows go in as multi-row INSERTs of up to 500, a table's batch sent before the next table's.
      var batch: (table: BackupTable, rows: Int, binds: PostgresBindings)?
      func flush() async throws {
        guard let (table, rows, binds) = batch, rows > 0 else { return }
        let width = table.columns.count
        let tuples = (0..<rows).map { row in
          "(" + (1...width).map { "$\(row * width + $0)" }.joined(separator: ", ") + ")"
        }
        try await c.query(
          PostgresQuery(
            unsafeSQL: "INSERT INTO \(table.rawValue) (\(table.columnNames.joined(separator: ", "))) VALUES "
              + tuples.joined(separator: ", "), binds: binds), logger: logger)
        batch = nil
      }
      while let (table, values) = try reader.next() {
        if batch?.table != table || batch?.rows == 500 { try await flush() }
        var binds = batch?.binds ?? PostgresBindings(capacity: 500 * table.columns.count)
        for value in values { Self.bind(value, &binds) }
        batch = (table, (batch?.rows ?? 0) + 1, binds)
      }
      try await flush()
      // Each user's counter goes on from its highest restored record, under a new epoch:
      // every device's cursor is refused once, and the device sends and fetches everything again.
      try await c.query(
        "UPDATE users u SET seq = coalesce((SELECT max(seq) FROM records r WHERE r.user_id = u.id), 0)",
        logger: logger)
      try await c.query(
        "UPDATE server_meta SET value = substr(md5(random()::text), 1, 16) WHERE key = 'epoch'", logger: logger)
    }
  }

  static func backupValue(_ cell: PostgresCell, _ column: BackupTable.Column) throws -> BackupValue {
    let value: BackupValue?
    switch column.kind {
    case .text: value = try cell.decode(String?.self).map(BackupValue.text)
    case .int: value = try cell.decode(Int64?.self).map(BackupValue.int)
    case .bool: value = try cell.decode(Bool?.self).map(BackupValue.bool)
    case .date: value = try cell.decode(Date?.self).map(BackupValue.date)
    case .bytes: value = try cell.decode(ByteBuffer?.self).map { .bytes(Data($0.readableBytesView)) }
    }
    return value ?? .null
  }

  static func bind(_ value: BackupValue, _ binds: inout PostgresBindings) {
    switch value {
    case .text(let text): binds.append(text)
    case .int(let number): binds.append(number)
    case .bool(let flag): binds.append(flag)
    case .date(let date): binds.append(date)
    case .bytes(let data): binds.append(ByteBuffer(bytes: data))
    case .null: binds.appendNull()
    }
  }
}
