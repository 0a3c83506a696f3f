import Core
import Foundation
import Records
import Replication
import Storage

/// Imports the database Gadgetbridge exports (Data management → Export DB): each device's
/// per-minute samples as steps, heart rate and sleep, the device's name as their source, a band
/// counted as a watch. The file is opened read-only and immutable, never changed; tables this
/// Vital does not read are named in the summary. Samples get the ids Apple Health's would, from
/// their content, so importing the same file again adds nothing.
public final class GadgetbridgeImport {
  public struct Summary: Equatable, Sendable {
    /// Sample rows read from the tables Vital reads.
    public var rows = 0
    public var inserted = 0
    public var duplicates = 0
    public var steps = 0
    public var heartRates = 0
    public var sleepStretches = 0
    /// Rows with a time no device could have written (before 2000, or after now).
    public var skipped = 0
    /// Devices, by the name their samples are kept under.
    public var devices: [String] = []
    /// Rows read from each table.
    public var tables: [String: Int] = [:]
    /// Tables with rows that Vital does not read, and how many rows each holds.
    public var notRead: [String: Int] = [:]
  }

  /// The sample tables read, in the common shape (TIMESTAMP in seconds, DEVICE_ID, STEPS,
  /// HEART_RATE, RAW_KIND), and the ones only Gadgetbridge itself needs.
  static let sampleTables = [
    "MI_BAND_ACTIVITY_SAMPLE", "HUAMI_EXTENDED_ACTIVITY_SAMPLE", "PEBBLE_HEALTH_ACTIVITY_SAMPLE",
  ]
  static let bookkeeping: Set<String> = [
    "DEVICE", "DEVICE_ATTRIBUTES", "USER", "USER_ATTRIBUTES", "android_metadata", "sqlite_sequence",
    "PEBBLE_HEALTH_ACTIVITY_OVERLAY",
  ]

  let db: Database
  let accountID: String
  let now: Date
  let batchSize: Int
  private var summary = Summary()

  public init(db: Database, accountID: String, now: Date, batchSize: Int = 5000) {
    precondition(db.path != ":memory:", "the import writes through a connection of its own: it needs a file")
    (self.db, self.accountID, self.now, self.batchSize) = (db, accountID, now, batchSize)
  }

  /// Whether a file starts as every SQLite database does.
  public static func isSQLite(_ head: Data) -> Bool { head.starts(with: Array("SQLite format 3\0".utf8)) }

  public func run(path: String) throws -> Summary {
    let name = (path as NSString).lastPathComponent
    var options = Database.Options()
    options.immutable = true
    let file: Database
    do {
      file = try Database(path: path, options: options)
    } catch {
      throw GadgetbridgeError.unreadable(name)
    }
    let tables = try Set(
      file.query("SELECT name FROM sqlite_schema WHERE type = 'table'") { try $0.get(0, as: String.self) })
    guard tables.contains("DEVICE") else { throw GadgetbridgeError.notGadgetbridge(name, missing: "DEVICE table") }
    let read = Self.sampleTables.filter(tables.contains)
    guard !read.isEmpty else {
      throw GadgetbridgeError.notGadgetbridge(
        name,
        missing:
          "activity sample table Vital reads (MI_BAND_ACTIVITY_SAMPLE, HUAMI_EXTENDED_ACTIVITY_SAMPLE, PEBBLE_HEALTH_ACTIVITY_SAMPLE)"
      )
    }
    let devices = try GadgetbridgeDevice.all(in: file, file: name)
    let batches = ImportBatches(db: db, accountID: accountID, now: now, batchSize: batchSize)
    for table in read {
      do {
        try readSamples(table, from: file, devices: devices, into: batches)
      } catch let error as StorageError {
        throw GadgetbridgeError.unreadableTable(name, table: table, reason: "\(error)")
      }
    }
    let counts = try batches.finish()
    (summary.inserted, summary.duplicates) = (counts.inserted, counts.duplicates)
    for table in tables.subtracting(read).subtracting(Self.bookkeeping).sorted() {
      let rows = try file.scalar(Int.self, "SELECT count(*) FROM \(Table.quoted(table))") ?? 0
      if rows > 0 { summary.notRead[table] = rows }
    }
    let used = Set(summary.devices)
    try db.transaction { db in
      try HealthStore.note(
        Dictionary(uniqueKeysWithValues: used.map { ($0, (HealthSource.Kind.watch, true)) }),
        replica: Replica(db: db, accountID: accountID, now: now))
    }
    try HealthTotals(db: db, accountID: accountID, now: now).refresh()
    return summary
  }

  /// Every row of one table, in time order (its primary key's), each device's sleep joined
  /// into stretches as it goes.
  private func readSamples(
    _ table: String, from file: Database, devices: [Int64: GadgetbridgeDevice], into batches: ImportBatches
  ) throws {
    let columns = try Set(file.query("SELECT name FROM pragma_table_info(?)", table) { try $0.get(0, as: String.self) })
    let pick = { (name: String) in columns.contains(name) ? name : "NULL" }
    let sql = """
      SELECT TIMESTAMP, DEVICE_ID, \(pick("STEPS")), \(pick("HEART_RATE")), \(pick("RAW_KIND")), \
      \(pick("RAW_INTENSITY")), \(pick("DEEP_SLEEP")), \(pick("REM_SLEEP")) FROM \(Table.quoted(table)) ORDER BY TIMESTAMP
      """
    let overlays = table == "PEBBLE_HEALTH_ACTIVITY_SAMPLE" ? try PebbleOverlays(file) : nil
    var state: [Int64: (stretches: SleepStretches, said: Int64?)] = [:]
    let latest = Int64(now.timeIntervalSince1970) + 86_400
    var rows = 0
    try file.forEachRow(sql) { row in
      rows += 1
      guard let ts = Int64.fromDatabaseValue(row[0]), let deviceID = Int64.fromDatabaseValue(row[1]),
        ts >= 946_684_800, ts <= latest
      else {
        summary.skipped += 1
        return
      }
      let device = devices[deviceID] ?? GadgetbridgeDevice.unknown(deviceID)
      let kind: GadgetbridgeKind =
        table == "HUAMI_EXTENDED_ACTIVITY_SAMPLE"
        ? .zeppOS : table == "MI_BAND_ACTIVITY_SAMPLE" ? device.miBand : .pebble
      let intensity = Int64.fromDatabaseValue(row[5])
      // Huami's live readings land between the minutes with intensity -1: heart rate only.
      let live = intensity == -1
      if !live, let steps = Int64.fromDatabaseValue(row[2]), steps > 0, steps <= 1000 {
        try add(HealthType.steps, Double(steps), "count", device, from: ts, to: ts + 60, into: batches)
        summary.steps += 1
      }
      if let bpm = Int64.fromDatabaseValue(row[3]), (10...250).contains(bpm) {
        try add(HealthType.heartRate, Double(bpm), "count/min", device, from: ts, to: ts, into: batches)
        summary.heartRates += 1
      }
      guard !live else { return }
      let raw = overlays?.kind(device: deviceID, at: ts) ?? Int64.fromDatabaseValue(row[4]) ?? 0
      var entry = state[deviceID] ?? (SleepStretches(), nil)
      let (minute, said) = kind.minute(
        raw: raw, deep: Int64.fromDatabaseValue(row[6]), rem: Int64.fromDatabaseValue(row[7]), previous: entry.said)
      entry.said = said
      let asleep: SleepState? = if case .asleep(let stage) = minute { stage } else { nil }
      if let stretch = entry.stretches.add(asleep, at: ts) { try add(sleep: stretch, device, into: batches) }
      state[deviceID] = entry
    }
    for (deviceID, entry) in state {
      var stretches = entry.stretches
      if let stretch = stretches.close() {
        try add(sleep: stretch, devices[deviceID] ?? .unknown(deviceID), into: batches)
      }
    }
    summary.rows += rows
    summary.tables[table] = rows
  }

  private func add(
    sleep stretch: (state: SleepState, start: Int64, end: Int64), _ device: GadgetbridgeDevice,
    into batches: ImportBatches
  ) throws {
    try add(
      SleepState.type, nil, nil, device, from: stretch.start, to: stretch.end, text: stretch.state.healthValue,
      into: batches)
    summary.sleepStretches += 1
  }

  private func add(
    _ type: String, _ value: Double?, _ unit: String?, _ device: GadgetbridgeDevice, from: Int64, to: Int64,
    text: String? = nil,
    into batches: ImportBatches
  ) throws {
    let (start, end) = (Date(timeIntervalSince1970: Double(from)), Date(timeIntervalSince1970: Double(to)))
    let (startText, endText) = (ISO8601.string(from: start), ISO8601.string(from: end))
    let stored: DatabaseValue = value.map(HealthType.stored) ?? text.map(DatabaseValue.text) ?? .null
    let valueText = value.map { String(Int64($0)) } ?? text ?? ""
    let id = AppleHealthImport.id("hs", start, [type, device.identity, startText, endText, valueText, unit ?? ""])
    let source = device.name
    if !summary.devices.contains(source) { summary.devices.append(source) }
    if try !batches.add(
      .healthSample, id: id,
      [.text(type), stored, unit.databaseValue, .text(source), .text(startText), .text(endText)])
    {
      summary.skipped += 1
    }
  }
}
