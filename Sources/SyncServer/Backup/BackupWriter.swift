import Cryptography
import Foundation
import Storage
import Sync

/// Writes a backup as JSON lines: a header naming the format and each table's columns, one
/// line per row (`{"t": table, "v": [values in column order]}`), and a last line with the row
/// counts and the SHA-256 of every line before it. It writes to `PATH.partial` and renames it
/// into place only when complete, so a failed backup leaves no file that looks whole.
/// Used by one task at a time: the backup that created it.
public final class BackupWriter: @unchecked Sendable {
  public static let format = "vital-server-backup"
  public static let version = 1

  let path: String
  let partial: String
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private let digest = SHA256Stream()
  private var counts: [BackupTable: Int] = [:]
  private var finished = false

  public init(path: String, source: String, now: Date) throws {
    self.path = path
    partial = path + ".partial"
    let fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw BackupError.cannotWrite(path, reason: String(cString: strerror(errno))) }
    handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    let tables = BackupTable.allCases.map {
      "\(WireJSON.quote($0.rawValue)):[\($0.columnNames.map(WireJSON.quote).joined(separator: ","))]"
    }
    try line(
      "{\"format\":\(WireJSON.quote(Self.format)),\"version\":\(Self.version),\"created\":\(WireJSON.quote(ISO8601.string(from: now))),"
        + "\"source\":\(WireJSON.quote(source)),\"tables\":{\(tables.joined(separator: ","))}}")
  }

  deinit {
    if !finished { unlink(partial) }
  }

  public func row(_ table: BackupTable, _ values: [BackupValue]) throws {
    precondition(values.count == table.columns.count, "one value per column")
    var text = "{\"t\":\(WireJSON.quote(table.rawValue)),\"v\":["
    for (index, value) in values.enumerated() {
      if index > 0 { text += "," }
      switch value {
      case .text(let string): text += WireJSON.quote(string)
      case .int(let number): text += String(number)
      case .bool(let flag): text += flag ? "true" : "false"
      case .date(let date): text += WireJSON.quote(ISO8601.string(from: date))
      case .bytes(let data): text += "\"" + data.base64EncodedString() + "\""
      case .null: text += "null"
      }
    }
    try line(text + "]}")
    counts[table, default: 0] += 1
  }

  /// Writes the last line, flushes to disk and renames the file into place.
  public func finish() throws {
    let rows = BackupTable.allCases.map { "\(WireJSON.quote($0.rawValue)):\(counts[$0] ?? 0)" }
    let sha = digest.finalizeHex()
    buffer += Array("{\"end\":true,\"rows\":{\(rows.joined(separator: ","))},\"sha256\":\"\(sha)\"}\n".utf8)
    try flush()
    do {
      try handle.synchronize()
      try handle.close()
    } catch {
      throw BackupError.cannotWrite(path, reason: "\(error)")
    }
    guard rename(partial, path) == 0 else {
      throw BackupError.cannotWrite(path, reason: String(cString: strerror(errno)))
    }
    finished = true
  }

  public var rowCounts: [BackupTable: Int] { counts }

  private func line(_ text: String) throws {
    let bytes = Array((text + "\n").utf8)
    digest.update(bytes)
    buffer += bytes
    if buffer.count >= 1 << 20 { try flush() }
  }

  private func flush() throws {
    do { try handle.write(contentsOf: buffer) } catch { throw BackupError.cannotWrite(path, reason: "\(error)") }
    buffer.removeAll(keepingCapacity: true)
  }
}
