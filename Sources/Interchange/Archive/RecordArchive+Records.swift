import Core
import Foundation
import Records
import Replication
import Storage

extension RecordArchive {
  /// Reads one dataset's records up to its closing line (`]},`, or `]}` for the last dataset)
  /// and writes them; returns what it did and whether this was the last dataset.
  func importRecords(
    _ dataset: Dataset, _ columns: [String], _ reader: inout ArchiveReader
  ) throws -> (ImportSummary.Part, last: Bool) {
    let singleton = singletonID(dataset)
    var merge = try RecordMerge(
      dataset, columns: columns, replica: Replica(db: db, accountID: account.id, now: now),
      oneByOne: singleton != nil)
    while true {
      guard var line = try reader.next() else { throw ArchiveError.truncated(line: reader.line) }
      if line == Self.closing || line == Self.closingLast {
        try merge.finish()
        return (merge.part, line == Self.closingLast)
      }
      if line.last == UInt8(ascii: ",") { line.removeLast() }
      let (fileID, values) = try record(line, reader.line, columns)
      guard let id = singleton ?? fileID else { throw ArchiveError.malformed(line: reader.line, "a record without id") }
      try merge.put(id: id, values)
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
