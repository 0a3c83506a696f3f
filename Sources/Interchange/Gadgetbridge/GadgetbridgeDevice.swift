import Foundation
import Storage

/// A row of Gadgetbridge's DEVICE table: the name samples are kept under (the alias a person
/// gave it, else its name), and which family reads its raw kinds.
struct GadgetbridgeDevice {
  var name: String
  var miBand: GadgetbridgeKind
  /// What sample ids are made from: the device's address (IDENTIFIER) where the table has it,
  /// so that a device renamed in Gadgetbridge and exported again adds nothing; else its name.
  var identity: String

  /// Every device, by `_id`. Columns are read by name: upgraded databases have the later ones
  /// (ALIAS, TYPE_NAME) at the end, and older ones lack them.
  static func all(in file: Database, file name: String) throws -> [Int64: GadgetbridgeDevice] {
    let columns = try Set(file.query("SELECT name FROM pragma_table_info('DEVICE')") { try $0.get(0, as: String.self) })
    guard columns.contains("_id"), columns.contains("NAME") else {
      throw GadgetbridgeError.notGadgetbridge(name, missing: "DEVICE table with _id and NAME")
    }
    let pick = { (column: String) in columns.contains(column) ? "\"\(column)\"" : "NULL" }
    var devices: [Int64: GadgetbridgeDevice] = [:]
    try file.forEachRow(
      "SELECT _id, NAME, \(pick("ALIAS")), \(pick("TYPE_NAME")), \(pick("TYPE")), \(pick("IDENTIFIER")) FROM DEVICE"
    ) {
      row in
      guard let id = Int64.fromDatabaseValue(row[0]) else { return }
      let named = [String.fromDatabaseValue(row[2]), String.fromDatabaseValue(row[1])].compactMap { $0 }
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty }
      let name = String((named ?? "Gadgetbridge device \(id)").prefix(200))
      let address = String.fromDatabaseValue(row[5]).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      devices[id] = GadgetbridgeDevice(
        name: name, miBand: .miBand(typeName: String.fromDatabaseValue(row[3]), type: Int64.fromDatabaseValue(row[4])),
        identity: address.flatMap { $0.isEmpty ? nil : "gadgetbridge device " + $0.prefix(200) } ?? name)
    }
    return devices
  }

  /// A sample whose device is not in DEVICE (a row left from a device removed since).
  static func unknown(_ id: Int64) -> GadgetbridgeDevice {
    GadgetbridgeDevice(name: "Gadgetbridge device \(id)", miBand: .huami, identity: "Gadgetbridge device \(id)")
  }
}

/// Pebble's sleep, kept apart from its minutes as stretches (`PEBBLE_HEALTH_ACTIVITY_OVERLAY`):
/// a minute takes the deep sleep of any stretch over it, else the light.
struct PebbleOverlays {
  private var stretches: [Int64: [(from: Int64, to: Int64, kind: Int64)]] = [:]

  init(_ file: Database) throws {
    let exists = try file.scalar(
      Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'PEBBLE_HEALTH_ACTIVITY_OVERLAY'")
    guard exists == 1 else { return }
    try file.forEachRow(
      "SELECT DEVICE_ID, TIMESTAMP_FROM, TIMESTAMP_TO, RAW_KIND FROM PEBBLE_HEALTH_ACTIVITY_OVERLAY ORDER BY TIMESTAMP_FROM"
    ) { row in
      guard let device = Int64.fromDatabaseValue(row[0]), let from = Int64.fromDatabaseValue(row[1]),
        let to = Int64.fromDatabaseValue(row[2]), let kind = Int64.fromDatabaseValue(row[3]), (1...4).contains(kind)
      else { return }
      stretches[device, default: []].append((from, to, kind))
    }
  }

  /// The raw kind over `ts` (2 deep, 1 light), nil when no sleep covers it.
  func kind(device: Int64, at ts: Int64) -> Int64? {
    guard let list = stretches[device] else { return nil }
    // Sorted by start: the ones begun by `ts` are before `low`.
    var low = 0
    var high = list.count
    while low < high {
      let mid = (low + high) / 2
      if list[mid].from <= ts { low = mid + 1 } else { high = mid }
    }
    // Back through those begun in the last day: no night is longer.
    var found: Int64?
    var i = low - 1
    while i >= 0, list[i].from > ts - 86_400 {
      if list[i].to > ts {
        if list[i].kind == 2 || list[i].kind == 4 { return 2 }
        found = 1
      }
      i -= 1
    }
    return found
  }
}

/// Why a Gadgetbridge import stopped. Messages name the file and table, never a value.
public enum GadgetbridgeError: Error, Equatable, CustomStringConvertible {
  case unreadable(String)
  case notGadgetbridge(String, missing: String)
  case unreadableTable(String, table: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let file):
      "'\(file)' starts as a SQLite database but cannot be read as one (damaged or cut short?); nothing was imported"
    case .notGadgetbridge(let file, let missing):
      "'\(file)' is a SQLite database but not Gadgetbridge's: it has no \(missing); export it from Gadgetbridge (Data management > Export DB); nothing was imported"
    case .unreadableTable(let file, let table, let reason):
      "cannot read \(table) in '\(file)' (\(reason.prefix(160))); what was read before it is kept, importing again adds only what is missing"
    }
  }
}
