import Cryptography
import Foundation
import Replication
import Storage
import Sync

/// Reads a backup `BackupWriter` wrote, line by line in constant memory, checking each row
/// against its table's columns; the last line's counts and checksum must match what was read.
/// Used by one task at a time: the restore that opened it.
public final class BackupReader: @unchecked Sendable {
  let path: String
  private let handle: FileHandle
  private var pending: [UInt8] = []
  private var offset = 0
  private var atEnd = false
  private var lineNumber = 0
  private let digest = SHA256Stream()
  private var counts: [BackupTable: Int] = [:]
  public private(set) var source = ""
  public private(set) var finished = false
  /// The rules of the datasets the server knows, checked on every record as a push is.
  private let rules: [String: [String: FieldRule]]
  /// The longest line a backup holds: a record's fields (at most a request's body) or a blob in
  /// base64. A longer one is no backup (`/dev/zero` has no line at all).
  static let maxLine = 96 << 20

  public init(path: String, rules: [String: [String: FieldRule]] = [:]) throws {
    self.path = path
    self.rules = rules
    var info = stat()
    guard stat(path, &info) == 0 else { throw BackupError.cannotRead(path, reason: "no such file, or not readable") }
    guard info.st_mode & S_IFMT == S_IFREG else { throw BackupError.cannotRead(path, reason: "not a regular file") }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw BackupError.cannotRead(path, reason: "no such file, or not readable")
    }
    self.handle = handle
    guard let first = try nextLine(),
      let header = try? JSONSerialization.jsonObject(with: Data(first)) as? [String: Any],
      header["format"] as? String == BackupWriter.format
    else { throw BackupError.notABackup(path) }
    let version = header["version"] as? Int ?? 0
    guard version <= BackupWriter.version else { throw BackupError.newerVersion(version) }
    let tables = header["tables"] as? [String: [String]] ?? [:]
    for table in BackupTable.allCases where tables[table.rawValue] != table.columnNames {
      throw BackupError.malformed(line: 1, "the columns of \(table.rawValue) are not this version's")
    }
    source = header["source"] as? String ?? ""
    digest.update(first + [10])
  }

  /// The next row, or nil after the last line (checked).
  public func next() throws -> (BackupTable, [BackupValue])? {
    guard !finished else { return nil }
    guard let line = try nextLine() else { throw BackupError.truncated }
    let number = lineNumber
    guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
      throw BackupError.malformed(line: number, "not a JSON object")
    }
    if object["end"] as? Bool == true {
      try verifyEnd(object)
      return nil
    }
    digest.update(line + [10])
    guard let name = object["t"] as? String, let table = BackupTable(rawValue: name), let cells = object["v"] as? [Any],
      cells.count == table.columns.count
    else { throw BackupError.malformed(line: number, "not a row of a known table") }
    var values: [BackupValue] = []
    values.reserveCapacity(cells.count)
    for (column, cell) in zip(table.columns, cells) {
      values.append(try Self.value(cell, column, line: number))
    }
    if table == .records { try check(record: values, line: number) }
    counts[table, default: 0] += 1
    return (table, values)
  }

  static func value(_ cell: Any, _ column: BackupTable.Column, line: Int) throws -> BackupValue {
    if cell is NSNull {
      guard column.optional else { throw BackupError.malformed(line: line, "\(column.name) is missing") }
      return .null
    }
    let value: BackupValue?
    switch column.kind {
    case .text: value = (cell as? String).map(BackupValue.text)
    case .int: value = (cell as? NSNumber).flatMap { Int64(exactly: $0.doubleValue) }.map(BackupValue.int)
    case .bool: value = (cell as? Bool).map(BackupValue.bool)
    case .date: value = (cell as? String).flatMap(ISO8601.date(from:)).map(BackupValue.date)
    case .bytes: value = (cell as? String).flatMap { Data(base64Encoded: $0) }.map(BackupValue.bytes)
    }
    guard let value else { throw BackupError.malformed(line: line, "\(column.name) is not a \(column.kind)") }
    return value
  }

  /// A record's fields as a push would bring them: a JSON map of values with clocks, its names
  /// and clocks well formed, its values in the clear passing their rules.
  private func check(record values: [BackupValue], line: Int) throws {
    guard case .text(let dataset) = values[1], case .text(let id) = values[2], case .text(let text) = values[3] else {
      return
    }
    guard let fields = try? WireJSON.fields(text) else {
      throw BackupError.malformed(line: line, "a record's fields are not a map of values with clocks")
    }
    do {
      let change = WireChange(dataset: dataset, id: id, fields: fields)
      try change.check(now: .distantFuture)
      try change.check(rules: rules)
    } catch let error as ChangeSetError {
      throw BackupError.malformed(line: line, error.description)
    }
  }

  private func verifyEnd(_ object: [String: Any]) throws {
    let rows = object["rows"] as? [String: Int] ?? [:]
    for table in BackupTable.allCases where rows[table.rawValue] ?? -1 != counts[table] ?? 0 {
      throw BackupError.tampered(
        "\(counts[table] ?? 0) \(table.rawValue) read, the last line says \(rows[table.rawValue] ?? 0)")
    }
    guard object["sha256"] as? String == digest.finalizeHex() else { throw BackupError.tampered("checksum") }
    guard try nextLine() == nil else { throw BackupError.tampered("lines after the last one") }
    finished = true
  }

  /// The next line without its newline; nil at the end of the file.
  private func nextLine() throws -> [UInt8]? {
    while true {
      if let newline = pending[offset...].firstIndex(of: 10) {
        let line = Array(pending[offset..<newline])
        offset = newline + 1
        lineNumber += 1
        return line
      }
      guard pending.count - offset <= Self.maxLine else {
        throw BackupError.malformed(line: lineNumber + 1, "a line over \(Self.maxLine >> 20) MiB")
      }
      if atEnd {
        guard offset < pending.count else { return nil }
        // A last line without its newline: the file was cut short.
        throw BackupError.truncated
      }
      pending.removeFirst(offset)
      offset = 0
      let chunk: Data?
      do { chunk = try handle.read(upToCount: 1 << 20) } catch {
        throw BackupError.cannotRead(path, reason: "\(error)")
      }
      if let chunk, !chunk.isEmpty { pending += chunk } else { atEnd = true }
    }
  }
}
