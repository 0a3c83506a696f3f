import Core
import Records
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

  /// Switches `source` on or off; `at` (HH:MM) sets the time of a daily source, kept otherwise.
  public func set(_ source: ReminderSource, enabled: Bool, at: String? = nil) throws {
    if let at {
      guard source.defaultTime != nil, CycleNoteChange.isTime(at) else {
        throw ReminderSettingsError.badTime(source.rawValue)
      }
    }
    try db.execute(
      """
      INSERT INTO reminder_source (account_id, source, enabled, at) VALUES (?1, ?2, ?3, ?4)
      ON CONFLICT (account_id, source) DO UPDATE SET enabled = ?3, at = coalesce(?4, at)
      """, account.id, source.rawValue, enabled, at)
  }

  /// The time of day a daily source reminds at: the one chosen, else its default.
  public func time(_ source: ReminderSource) throws -> String? {
    guard let fallback = source.defaultTime else { return nil }
    return try db.scalar(
      String.self, "SELECT at FROM reminder_source WHERE account_id = ? AND source = ? AND at IS NOT NULL", account.id,
      source.rawValue) ?? fallback
  }

  /// Chosen times by source, as an export carries them.
  public func storedTimes() throws -> [(String, String)] {
    try db.query(
      "SELECT source, at FROM reminder_source WHERE account_id = ? AND at IS NOT NULL ORDER BY source", account.id
    ) { (try $0.get(0, as: String.self), try $0.get(1, as: String.self)) }
  }

  /// Sets a chosen time by source name, as an import does.
  public func restoreTime(_ name: String, at: String) throws {
    guard let source = ReminderSource(rawValue: name), source.defaultTime != nil, CycleNoteChange.isTime(at) else {
      throw ReminderSettingsError.unknown(name + "_at")
    }
    try db.execute(
      """
      INSERT INTO reminder_source (account_id, source, enabled, at) VALUES (?1, ?2, ?3, ?4)
      ON CONFLICT (account_id, source) DO UPDATE SET at = ?4
      """, account.id, name, source.enabledByDefault, at)
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
  case badTime(String)

  public var description: String {
    switch self {
    case .badTime(let source):
      source == ReminderSource.temperature.rawValue
        ? "--at must be a time, HH:MM, like 06:30" : "--at is only for the temperature reminder"
    case .unknown(let name):
      "unknown reminder setting '\(name.prefix(40))'; it may come from a newer Vital: update Vital and try again"
    }
  }
}
