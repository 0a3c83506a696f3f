import Auth
import CLIApp
import CLICore
import Core
import Foundation
import Records
import Replication
import Storage

/// The home `vital web` serves: the same database and session file the CLI uses, one
/// connection, on a thread of its own (SQLite blocks; the cooperative pool must not). Reads
/// and writes go through here one at a time, each with the clock of the moment it runs, as
/// the account that is logged in at that moment (`vital account logout` in a terminal locks
/// the pages too).
public actor WebStore {
  private let executor = DedicatedThreadExecutor(name: "vital web SQLite")
  public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
  private let app: App
  private let clock: @Sendable () -> Date
  /// The home's folder, for the commands the pages run beside the server (exports, sync).
  public nonisolated let homePath: String

  /// Opens the home `--home` names (as every command does, but with no change open: each form
  /// opens its own) and checks that someone is logged in.
  public init(home: String?, clock: @escaping @Sendable () -> Date) throws {
    app = try App(home: home, json: false, command: nil)
    homePath = app.home.path
    _ = try app.requireAccount()
    self.clock = clock
  }

  deinit { executor.shutdown() }

  /// Runs `body` over the logged-in account as it is now.
  public func read<T: Sendable>(_ body: @Sendable (AccountScope) throws -> T) throws -> T {
    try body(try scope())
  }

  /// Runs `body` as one change named `command` in the undo journal (the CLI's name for the
  /// same change, so `vital undo` in a terminal says what the page did), synced like any other.
  public func write<T: Sendable>(_ command: String, _ body: @Sendable (AccountScope) throws -> T) throws -> T {
    let scope = try scope()
    ChangeJournal.begin(app.db, command: command)
    defer { ChangeJournal.end(app.db) }
    return try body(scope)
  }

  /// Runs `body` outside any journaled change: for the undo, which journals itself.
  public func unjournaled<T: Sendable>(_ body: @Sendable (AccountScope) throws -> T) throws -> T {
    try body(try scope())
  }

  /// A time typed in a form (`2026-11-26T09:30` from a date-time field, or `yesterday 17:30`),
  /// placed as the CLI places `--at`; nil when it does not read as a time at all.
  public func instant(_ text: String) throws -> Date? {
    guard let argument = DateTimeArgument(argument: text.trimmingCharacters(in: .whitespaces)) else { return nil }
    return try app.instant(argument, bareDateIsMidnight: false, now: clock())
  }

  private func scope() throws -> AccountScope {
    let now = clock()
    guard let token = app.readSessionToken() else { throw Self.loggedOut }
    do {
      let account = try AccountStore(db: app.db, now: now).account(forToken: token)
      return AccountScope(db: app.db, account: account, now: now, calendar: app.calendar)
    } catch is AuthError {
      throw Self.loggedOut
    }
  }

  static let loggedOut = WebError(
    .unauthorized, "Nobody is logged in to Vital here any more: log in with 'vital account login', then reload.")
}
