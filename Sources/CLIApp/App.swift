import AtRest
import CLICore
import Foundation
import Replication
import Schema
import Storage

/// What every command needs: the data folder, the open database, the clock and the output.
public final class App {
  public let home: Home
  public let db: Database
  public let now: Date
  public let timeZone: TimeZone
  public let calendar: Calendar
  public let output: Output

  /// Opens the data folder for `command` (`donor edit`): the writes it makes are one change in
  /// the undo journal. By default, the command `start()` is running.
  public convenience init(
    _ global: GlobalOptions, command: String? = RunningCommand.name,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws {
    try self.init(home: global.home, json: global.json, command: command, environment: environment)
  }

  /// The same from the options' values: `home` is `--home`, nil for the environment's choice.
  public init(
    home option: String?, json: Bool, command: String?,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws {
    // Files Vital creates (database, WAL, session, backups) are the owner's alone.
    umask(0o077)
    output = Output(json: json)
    (now, timeZone) = try Self.clock(environment)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    self.calendar = calendar
    home = try Home.prepare(Home.resolve(option: option, environment: environment))
    try Self.refuseEmptyFile(home.databasePath)
    // A database encrypted at rest opens with the key 'vital unlock' left in the keyring.
    try AtRestAccess(environment: environment, ask: PasswordPrompt.askIfTerminal).prepare(databaseAt: home.databasePath)
    db = try VitalSchema.open(path: home.databasePath)
    chmod(home.databasePath, 0o600)
    if let command { ChangeJournal.begin(db, command: command) }
  }

  /// A database file that is there but holds no page was cut short: SQLite would start a new,
  /// empty database in it, and the login would be dropped as one of an unknown account, so what
  /// is lost would look like a fresh start. A file that is not there is a new home.
  public static func refuseEmptyFile(_ path: String) throws {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
    if info.st_size == 0 { throw CLIError.emptyDatabase(path, sealed: false, whole: true) }
    if info.st_size <= SealedPages.headerSize, SealedPages.isSealed(fileAt: path) {
      throw CLIError.emptyDatabase(path, sealed: true, whole: info.st_size == SealedPages.headerSize)
    }
  }

  /// `VITAL_NOW` replaces the system clock when set; `TZ` names the local zone.
  public static func clock(_ environment: [String: String]) throws -> (Date, TimeZone) {
    var now = Date()
    if let text = environment["VITAL_NOW"], !text.isEmpty {
      guard let date = ISO8601.date(from: text) else { throw CLIError.badClock(text) }
      now = date
    }
    var zone = TimeZone.current
    if let name = environment["TZ"], !name.isEmpty {
      let id = name.hasPrefix(":") ? String(name.dropFirst()) : name
      guard let named = TimeZone(identifier: id) else { throw CLIError.badTimeZone(name) }
      zone = named
    }
    return (now, zone)
  }
}
