import Core
import Cryptography
import Foundation
import Records
import Replication
import Storage
import Views

/// Every record of one account as one JSON document (docs/export-format.md), written and read a
/// record at a time so that millions of health samples pass in constant memory.
///
/// The layout is fixed, one record a line, and the last member is the SHA-256 of every byte
/// before it: a file that was cut short or changed is refused before anything of it is kept.
/// Records are ordered by id and carry no write times, so the same records always make the same
/// bytes: an export imported into a fresh home exports again byte for byte.
public struct RecordArchive {
  public static let format = "vital-export"
  public static let version = 1

  let db: Database
  let account: Account
  let datasets: [Dataset]
  let now: Date

  /// `datasets` in the order a new device applies them (blobs before the profile that points at
  /// them): the file keeps that order, and an import writes in it.
  public init(db: Database, account: Account, datasets: [Dataset], now: Date) {
    self.db = db
    self.account = account
    self.datasets = datasets
    self.now = now
  }

  /// What an export wrote or an import read, per dataset, in file order.
  public struct Counts: Sendable {
    public var datasets: [(name: String, records: Int)] = []
    public var total: Int { datasets.reduce(0) { $0 + $1.records } }
  }

  /// The profile is the account's own record: its id comes from the email, so the file leaves it
  /// out and an import gives it the importing account's.
  func singletonID(_ dataset: Dataset) -> String? {
    dataset.name == Dataset.profile.name ? ProfileStore(db: db, account: account, now: now).profileID : nil
  }

  /// The columns a record of `dataset` carries in the file: its synced fields, then the columns
  /// kept on the device (avatar bytes).
  static func columns(_ dataset: Dataset) -> [String] { dataset.fields + dataset.local }

  // MARK: Export

  /// Writes the document in parts of about a MiB to `sink`; returns how many records of each
  /// dataset it holds. Reads in one transaction, so the file is one moment of the database.
  public func export(to sink: @escaping ([UInt8]) throws -> Void) throws -> Counts {
    var writer = ArchiveWriter(sink: sink)
    var counts = Counts()
    try db.transaction(.deferred) { db in
      writer.append("{\"format\":")
      writer.appendQuoted(Self.format)
      writer.append(",\"version\":\(Self.version),\n\"datasets\":[\n")
      for (n, dataset) in datasets.enumerated() {
        let columns = Self.columns(dataset)
        writer.append("{\"name\":")
        writer.appendQuoted(dataset.name)
        writer.append(",\"fields\":[")
        for (i, column) in columns.enumerated() {
          if i > 0 { writer.append(",") }
          writer.appendQuoted(column)
        }
        writer.append("],\"records\":[\n")
        let singleton = singletonID(dataset) != nil
        let names = ([dataset.key] + columns).map { "\"\($0)\"" }.joined(separator: ", ")
        var records = 0
        try db.forEachRow(
          "SELECT \(names) FROM \(dataset.table) WHERE account_id = ? ORDER BY \(dataset.key)", account.id
        ) { row in
          if records > 0 { writer.append(",\n") }
          records += 1
          writer.append("{")
          var first = true
          if !singleton {
            writer.append("\"id\":")
            writer.appendValue(row[0])
            first = false
          }
          for (i, column) in columns.enumerated() {
            if !first { writer.append(",") }
            first = false
            writer.appendQuoted(column)
            writer.append(":")
            writer.appendValue(row[i + 1])
          }
          writer.append("}")
          try writer.flushIfFull()
        }
        writer.append(records > 0 ? "\n" : "")
        writer.append(n == datasets.count - 1 ? "]}\n" : "]},\n")
        counts.datasets.append((dataset.name, records))
      }
      writer.append("],\n\"settings\":{\"reminders\":{")
      let settings = ReminderSettings(db: db, account: account)
      for (i, (source, on)) in try settings.stored().enumerated() {
        if i > 0 { writer.append(",") }
        writer.appendQuoted(source)
        writer.append(on ? ":true" : ":false")
      }
      for (source, at) in try settings.storedTimes() {
        writer.append(",")
        writer.appendQuoted(source + "_at")
        writer.append(":")
        writer.appendQuoted(at)
      }
      writer.append("}},\n")
    }
    try writer.finish()
    return counts
  }
}
