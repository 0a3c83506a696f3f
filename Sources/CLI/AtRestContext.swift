import ArgumentParser
import AtRest
import Auth
import CLIApp
import CLICore
import Core
import Cryptography
import Foundation
import Storage

/// What the commands that change how the database is kept at rest share: the data folder's
/// database as a file, not yet open (rewriting it needs it alone), and how they ask for keys.
struct AtRestContext {
  let home: Home
  let database: SealedDatabase
  let output: Output
  let environment: [String: String]
  let keyring: KernelKeyring

  static func open(_ global: GlobalOptions) throws -> AtRestContext {
    umask(0o077)
    let environment = ProcessInfo.processInfo.environment
    let home = try Home.prepare(Home.resolve(option: global.home, environment: environment))
    // Encrypting, checking or unlocking a file that was cut short would start a new database.
    try App.refuseEmptyFile(home.databasePath)
    return AtRestContext(
      home: home, database: SealedDatabase(path: home.databasePath), output: Output(json: global.json),
      environment: environment, keyring: KernelKeyring(environment: environment))
  }

  /// The sealed database, or an error saying it is plain.
  func sealedHeader() throws -> AtRestHeader {
    guard database.isSealed else { throw AtRestError.notSealed }
    return try database.header()
  }

  /// Makes the sealed database openable here as every command does (keyring, file, terminal).
  func prepare() throws {
    try AtRestAccess(environment: environment, keyring: keyring, ask: PasswordPrompt.askIfTerminal)
      .prepare(databaseAt: database.path)
  }

  /// Keeps `key` in the kernel keyring for `seconds`: the time it stays unlocked, or nil (with
  /// the reason) where the keyring cannot keep it.
  func keep(_ key: SymmetricKey, header: AtRestHeader, seconds: Int, now: Date = Date()) -> (
    until: Date?, reason: String?
  ) {
    do {
      try keyring.store(key, name: header.keyringName, seconds: seconds)
      return (now.addingTimeInterval(TimeInterval(seconds)), nil)
    } catch {
      return (nil, keyring.unavailableReason ?? "\(error)")
    }
  }

  /// What `keep` did, as a line for a person: the time on the real clock (the keyring's), in
  /// the local zone.
  func unlockedLine(_ kept: (until: Date?, reason: String?), seconds: Int) -> String {
    guard let until = kept.until else {
      return
        "the kernel keyring cannot keep the key here (\(kept.reason ?? "unknown")): each command asks for the passphrase on a terminal; scripts name a file holding it in VITAL_PASSPHRASE_FILE"
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = (try? App.clock(environment).1) ?? .current
    let time = HumanText(now: Date(), calendar: calendar).time(until)
    return "unlocked until \(time) (\(UnlockDuration.words(seconds))); 'vital lock' locks it now"
  }

  static func json(_ kept: (until: Date?, reason: String?)) -> JSON {
    kept.until.map { .string(ISO8601.string(from: $0)) } ?? .null
  }
}

/// `--passphrase-stdin`, for the database's passphrase (not the sync passphrase).
struct DatabasePassphraseOptions: ParsableArguments {
  @Flag(help: "Read the passphrase as a line from stdin instead of asking on the terminal.")
  var passphraseStdin = false

  /// The passphrase of the database: a line on stdin, else `VITAL_PASSPHRASE_FILE`, else asked.
  func current(_ what: String = "passphrase", environment: [String: String]) throws -> String {
    if !passphraseStdin, let file = environment["VITAL_PASSPHRASE_FILE"], !file.isEmpty {
      return try AtRestAccess.passphrase(fromFile: file)
    }
    return try PasswordPrompt.read(
      what, fromStdin: passphraseStdin, kind: "passphrase", flag: "--passphrase-stdin")
  }

  /// A new passphrase, asked twice on a terminal (one line on stdin), as long as an account
  /// password must be.
  func new(_ what: String = "new passphrase") throws -> String {
    let text = try PasswordPrompt.read(
      what, fromStdin: passphraseStdin, confirm: true, kind: "passphrase", flag: "--passphrase-stdin")
    do { try PasswordPolicy.check(text) } catch {
      throw CLIError.needsInput("\(error)".replacingOccurrences(of: "password", with: "passphrase"))
    }
    return text
  }
}

/// `--for 8h`, for the commands that leave the database unlocked: how long the key stays in
/// the keyring.
struct UnlockForOptions: ParsableArguments {
  @Option(
    name: .customLong("for"),
    help: ArgumentHelp("How long it stays unlocked: 30m, 8h, 2d (at most 366d).", valueName: "duration"),
    transform: UnlockDuration.parse)
  var seconds = UnlockDuration.standard
}

/// How long `vital unlock` keeps the key.
enum UnlockDuration {
  static let standard = 8 * 3600

  /// `30m`, `8h`, `2d`: a whole number and a unit, up to a year and a day.
  static func parse(_ text: String) throws -> Int {
    let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
    guard let unit = text.last.flatMap({ units[$0] }), let number = Int(text.dropLast()), number > 0,
      number <= 366 * 86400 / unit
    else { throw AtRestError.badDuration(text) }
    return number * unit
  }

  static func words(_ seconds: Int) -> String {
    if seconds % 86400 == 0 { return HumanText.count(seconds / 86400, "day") }
    if seconds % 3600 == 0 { return HumanText.count(seconds / 3600, "hour") }
    if seconds % 60 == 0 { return HumanText.count(seconds / 60, "minute") }
    return HumanText.count(seconds, "second")
  }
}
