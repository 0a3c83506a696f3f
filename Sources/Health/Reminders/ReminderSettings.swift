import Core
import Storage

/// Which reminder sources are on, per device (a notification shows on this device's screen).
public struct ReminderSettings {
  let db: Database
  let account: Account

  public init(db: Database, account: Account) {
    self.db = db
    self.account = account
  }

  public func enabled() throws -> Set<ReminderSource> {
    let stored = try db.query(
      "SELECT source, enabled FROM reminder_source WHERE account_id = ?", account.id
    ) { (try $0.get(0, as: String.self), try $0.get(1, as: Bool.self)) }
    var result = Set(ReminderSource.allCases.filter(\.enabledByDefault))
    for (name, on) in stored {
      guard let source = ReminderSource(rawValue: name) else { continue }
      if on { result.insert(source) } else { result.remove(source) }
    }
    return result
  }

  /// Discreet notifications say only "Vital: 2 reminders", for a screen others can see. Kept in
  /// the same per-device table under a name no source has.
  static let discreetKey = "discreet"

  public func discreet() throws -> Bool {
    try db.scalar(
      Bool.self, "SELECT enabled FROM reminder_source WHERE account_id = ? AND source = ?", account.id,
      Self.discreetKey) ?? false
  }

  public func setDiscreet(_ on: Bool) throws {
    try db.execute(
      "INSERT OR REPLACE INTO reminder_source (account_id, source, enabled) VALUES (?, ?, ?)", account.id,
      Self.discreetKey, on)
  }

  public func set(_ source: ReminderSource, enabled: Bool) throws {
    try db.execute(
      "INSERT OR REPLACE INTO reminder_source (account_id, source, enabled) VALUES (?, ?, ?)", account.id,
      source.rawValue, enabled)
  }

  /// The settings as stored (source or `discreet`, on or off), by name: what an export carries.
  public func stored() throws -> [(String, Bool)] {
    try db.query("SELECT source, enabled FROM reminder_source WHERE account_id = ? ORDER BY source", account.id) {
      (try $0.get(0, as: String.self), try $0.get(1, as: Bool.self))
    }
  }

  /// Sets one stored setting by name, as an import does; unknown names are refused.
  public func restore(_ name: String, enabled: Bool) throws {
    guard name == Self.discreetKey || ReminderSource(rawValue: name) != nil else {
      throw ReminderSettingsError.unknown(name)
    }
    try db.execute(
      "INSERT OR REPLACE INTO reminder_source (account_id, source, enabled) VALUES (?, ?, ?)", account.id, name, enabled
    )
  }
}

public enum ReminderSettingsError: Error, CustomStringConvertible {
  case unknown(String)

  public var description: String {
    switch self {
    case .unknown(let name):
      "unknown reminder setting '\(name.prefix(40))'; it may come from a newer Vital: update Vital and try again"
    }
  }
}
