import Core
import Foundation
import Records
import Replication
import Storage
import Views

extension RecordArchive {
  /// What an import did, per dataset in file order.
  public struct ImportSummary: Sendable {
    public struct Part: Sendable, Equatable {
      public let dataset: String
      public var records = 0
      public var inserted = 0
      public var updated = 0
      public var unchanged = 0
      /// Records deleted on this device before: an import does not bring them back.
      public var keptDeleted = 0
    }

    public var parts: [Part] = []
    public var settings = 0
    /// Resources of a FHIR bundle read but not imported (daily totals, missed doses, others').
    public var skipped = 0

    public func total(_ count: KeyPath<Part, Int>) -> Int { parts.reduce(0) { $0 + $1[keyPath: count] } }
  }

  /// Reads an export from `read` (up to n bytes a call, none at the end) into this account, all or
  /// nothing: one transaction, rolled back when any line is wrong or the checksum differs. New
  /// records go in through the synced write path in bulk, changed ones field by field; records
  /// already here and equal are left alone, so importing twice changes nothing.
  public func importArchive(read: @escaping (Int) throws -> [UInt8]) throws -> ImportSummary {
    var reader = ArchiveReader(read: read)
    try db.keepJournalsInMemory()
    return try db.transaction { _ in
      var summary = ImportSummary()
      try readHeader(&reader)
      try expect(&reader, "\"datasets\":[")
      var seen = Set<String>()
      while true {
        guard let line = try reader.next() else { throw ArchiveError.truncated(line: reader.line) }
        if line == Array("],".utf8) { break }
        let (dataset, columns) = try section(line, reader.line, seen: &seen)
        let (part, last) = try importRecords(dataset, columns, &reader)
        summary.parts.append(part)
        if last {
          try expect(&reader, "],")
          break
        }
      }
      summary.settings = try importSettings(&reader)
      guard let closing = try reader.next() else { throw ArchiveError.truncated(line: reader.line) }
      let expected = try parse(closing, reader.line, wrap: ("{", "")) { p, key in
        guard key == "sha256", case .string(let hex) = try p.value() else {
          throw ArchiveError.malformed(line: reader.line, "expected the closing \"sha256\"")
        }
        return hex
      }
      guard try reader.next() == nil else { throw ArchiveError.malformed(line: reader.line, "text after the checksum") }
      guard expected.first == reader.digest() else { throw ArchiveError.checksumMismatch }
      return summary
    }
  }

  private func readHeader(_ reader: inout ArchiveReader) throws {
    guard let line = try reader.next(), line.starts(with: Array("{\"format\":".utf8)) else {
      throw ArchiveError.notAnExport
    }
    var format: String?
    var version: Int64?
    _ = try parse(line, 1, wrap: ("", "\"\":null}")) { p, key -> Void? in
      switch (key, try p.value()) {
      case ("format", .string(let text)): format = text
      case ("version", .int(let n)): version = n
      default: break
      }
      return nil
    }
    guard format == Self.format else { throw ArchiveError.notAnExport }
    guard let version, version >= 1 else { throw ArchiveError.malformed(line: 1, "no version") }
    guard version <= Self.version else { throw ArchiveError.newerVersion(Int(clamping: version)) }
  }

  /// A dataset's opening line: its name and the columns its records use.
  private func section(_ line: [UInt8], _ number: Int, seen: inout Set<String>) throws -> (Dataset, [String]) {
    var name: String?
    var columns: [String] = []
    _ = try parse(line, number, wrap: ("", "]}")) { p, key -> Void? in
      switch (key, try p.value()) {
      case ("name", .string(let text)): name = text
      case ("fields", .array(let items)):
        for item in items {
          guard case .string(let column) = item else { throw ArchiveError.malformed(line: number, "a field name") }
          columns.append(column)
        }
      default: break
      }
      return nil
    }
    guard let name else { throw ArchiveError.malformed(line: number, "expected a kind of record") }
    guard let dataset = datasets.named(name) else { throw ArchiveError.unknownDataset(line: number, name) }
    guard seen.insert(name).inserted else { throw ArchiveError.malformed(line: number, "\(name) appears twice") }
    let known = Self.columns(dataset)
    if let unknown = columns.first(where: { !known.contains($0) }) {
      throw ArchiveError.unknownField(line: number, dataset: name, unknown)
    }
    guard Set(columns).count == columns.count else { throw ArchiveError.malformed(line: number, "a field twice") }
    return (dataset, columns)
  }

  private func expect(_ reader: inout ArchiveReader, _ text: String) throws {
    guard let line = try reader.next() else { throw ArchiveError.truncated(line: reader.line) }
    guard line == Array(text.utf8) else { throw ArchiveError.malformed(line: reader.line, "expected \(text)") }
  }

  private func importSettings(_ reader: inout ArchiveReader) throws -> Int {
    guard let line = try reader.next() else { throw ArchiveError.truncated(line: reader.line) }
    guard line.last == UInt8(ascii: ","), line.starts(with: Array("\"settings\":".utf8)) else {
      throw ArchiveError.malformed(line: reader.line, "expected \"settings\"")
    }
    let number = reader.line
    var count = 0
    let settings = ReminderSettings(db: db, account: account)
    _ = try parse(Array(line.dropLast()), number, wrap: ("{", "}")) { p, key -> Void? in
      guard key == "settings", case .object(let groups) = try p.value() else { return nil }
      for case ("reminders", .object(let reminders)) in groups {
        for (name, value) in reminders {
          // A daily source's time follows its switch (`temperature_at` after `temperature`).
          if case .string(let at) = value, name.hasSuffix("_at") {
            try settings.restoreTime(String(name.dropLast(3)), at: at)
            continue
          }
          guard case .bool(let on) = value else { throw ArchiveError.malformed(line: number, "a reminder setting") }
          try settings.restore(name, enabled: on)
          count += 1
        }
      }
      return nil
    }
    return count
  }

  /// Parses `line` as one JSON object after wrapping it (the layout's lines are pieces of one
  /// document), calling `body` per member; returns what `body` returned, in order.
  func parse<T>(
    _ line: [UInt8], _ number: Int, wrap: (String, String), _ body: (inout JSONScanner, String) throws -> T?
  ) throws -> [T] {
    let text = Array(wrap.0.utf8) + line + Array(wrap.1.utf8)
    var results: [T] = []
    do {
      try text.withUnsafeBufferPointer { bytes in
        var p = JSONScanner(bytes: bytes)
        try p.members { p, key in if let result = try body(&p, key) { results.append(result) } }
        p.skipSpace()
        guard p.index == bytes.count else { throw JSONScanner.Malformed() }
      }
    } catch is JSONScanner.Malformed {
      throw ArchiveError.malformed(line: number, "not the JSON this layout expects")
    }
    return results
  }
}
