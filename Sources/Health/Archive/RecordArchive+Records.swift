import Core
import Foundation
import Replication
import Storage

extension RecordArchive {
  /// Reads one dataset's records up to its closing line (`]},`, or `]}` for the last dataset)
  /// and writes them; returns what it did and whether this was the last dataset.
  func importRecords(
    _ dataset: Dataset, _ columns: [String], _ reader: inout ArchiveReader
  ) throws -> (ImportSummary.Part, last: Bool) {
    var part = ImportSummary.Part(dataset: dataset.name)
    let replica = Replica(db: db, accountID: account.id, now: now)
    let singleton = singletonID(dataset)
    let slots = dataset.fields.map { columns.firstIndex(of: $0) }
    let local = Set(dataset.local)
    // An account with none of these records yet (a fresh home) needs no look-up per record.
    let empty =
      try db.scalar(Int.self, "SELECT EXISTS (SELECT 1 FROM \(dataset.table) WHERE account_id = ?)", account.id) == 0
    let select =
      "SELECT \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) FROM \(dataset.table) WHERE \(dataset.key) = ? AND account_id = ?"
    var pending: [(id: String, values: [DatabaseValue])] = []
    func flush() throws {
      let inserted = try replica.insertNew(dataset, pending)
      part.inserted += inserted
      part.keptDeleted += pending.count - inserted
      pending.removeAll(keepingCapacity: true)
    }
    while true {
      guard var line = try reader.next() else { throw ArchiveError.truncated(line: reader.line) }
      if line == Self.closing || line == Self.closingLast {
        try flush()
        return (part, line == Self.closingLast)
      }
      if line.last == UInt8(ascii: ",") { line.removeLast() }
      let (fileID, values) = try record(line, reader.line, columns)
      guard let id = singleton ?? fileID else { throw ArchiveError.malformed(line: reader.line, "a record without id") }
      part.records += 1
      let stored =
        empty && singleton == nil
        ? nil : try db.queryFirst(select, id, account.id) { row in (0..<columns.count).map { row[$0] } }
      if let stored {
        var changed: [String: DatabaseValue] = [:]
        var untracked: [String: DatabaseValue] = [:]
        for (i, column) in columns.enumerated() where stored[i] != values[i] {
          if local.contains(column) { untracked[column] = values[i] } else { changed[column] = values[i] }
        }
        if changed.isEmpty && untracked.isEmpty {
          part.unchanged += 1
        } else {
          try replica.write(dataset, id: id, changed, untracked: untracked)
          part.updated += 1
        }
      } else if !local.isEmpty || singleton != nil {
        // Avatars and the profile: a handful of records, each with bytes or an id of its own.
        var fields: [String: DatabaseValue] = [:]
        var untracked: [String: DatabaseValue] = [:]
        for (i, column) in columns.enumerated() {
          if local.contains(column) { untracked[column] = values[i] } else { fields[column] = values[i] }
        }
        try replica.write(dataset, id: id, fields, untracked: untracked)
        part.inserted += 1
      } else {
        pending.append((id, slots.map { $0.map { values[$0] } ?? .null }))
        if pending.count == 4096 { try flush() }
      }
    }
  }

  static let closing = Array("]},".utf8)
  static let closingLast = Array("]}".utf8)

  /// One record line: its id (if it has one) and a value per column, null where it has none.
  private func record(_ line: [UInt8], _ number: Int, _ columns: [String]) throws -> (String?, [DatabaseValue]) {
    var id: String?
    var values = [DatabaseValue](repeating: .null, count: columns.count)
    var filled = [Bool](repeating: false, count: columns.count)
    _ = try parse(line, number, wrap: ("", "")) { p, key -> Void? in
      let node = try p.value()
      if key == "id" {
        guard case .string(let text) = node, !text.isEmpty else { throw ArchiveError.malformed(line: number, "an id") }
        id = text
        return nil
      }
      guard let slot = columns.firstIndex(of: key) else {
        throw ArchiveError.malformed(line: number, "a field the dataset's line does not name")
      }
      guard !filled[slot] else { throw ArchiveError.malformed(line: number, "\(key) twice") }
      filled[slot] = true
      values[slot] = try Self.value(node, line: number)
      return nil
    }
    return (id, values)
  }

  static func value(_ node: JSONScanner.Node, line: Int) throws -> DatabaseValue {
    switch node {
    case .null: return .null
    case .bool(let flag): return .integer(flag ? 1 : 0)
    case .int(let n): return .integer(n)
    case .double(let d): return .real(d)
    case .string(let text): return .text(text)
    case .object(let members):
      guard members.count == 1, members[0].0 == "base64", case .string(let text) = members[0].1,
        let data = Data(base64Encoded: text)
      else { throw ArchiveError.malformed(line: line, "bytes must be {\"base64\": ...}") }
      return .blob(data)
    case .array: throw ArchiveError.malformed(line: line, "a value may not be a list")
    }
  }
}
