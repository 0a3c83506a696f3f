import ArgumentParser
import CLIApp
import CLICore
import Foundation

extension Vital.Serve {
  /// `vital serve admin ...` runs in vital-serve, which links the server's stores. Without a
  /// store option it looks after the SQLite folder `vital serve` uses by default.
  struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "admin", abstract: "The server's accounts: list, suspend, resume, delete. No value is ever shown.",
      discussion: """
        Run where the server's data is: the SQLite folder of 'vital serve --data' (by default \
        <home>/server), or its PostgreSQL database. Safe while the server runs.

        Examples:
          vital serve admin accounts --data ~/vital-server
          vital serve admin accounts --json
          vital serve admin suspend ann@example.org --postgres-file ~/.config/vital/postgres-url
          vital serve admin resume ann@example.org
          vital serve admin delete old@example.org --yes
          vital serve admin collect-blobs --older-than 0
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(
      parsing: .captureForPassthrough,
      help:
        "accounts | suspend EMAIL | resume EMAIL | delete EMAIL --yes | invite | collect-blobs, with --data DIR, --postgres URL or --postgres-file FILE"
    )
    var arguments: [String] = []

    func run() async throws { try ServeStorePassthrough.exec("admin", arguments, global) }
  }

  /// `vital serve backup ...` runs in vital-serve too.
  struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "backup", abstract: "Write a consistent backup of the server's store, while it serves.",
      discussion: """
        One file of JSON lines: accounts (password hashes only), sessions (token hashes only),
        records and blobs as the server holds them (an encrypted account's as ciphertext, with its
        wrapped key), invites; its last line counts the rows and checks them. It restores into
        SQLite or PostgreSQL, whichever the backup came from.

        Examples:
          vital serve backup --out vital-backup.jsonl
          vital serve backup --data ~/vital-server --out vital-backup.jsonl
          vital serve backup --postgres-file ~/.config/vital/postgres-url --out /backups/vital.jsonl
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(
      parsing: .captureForPassthrough, help: "--out FILE, with --data DIR, --postgres URL or --postgres-file FILE")
    var arguments: [String] = []

    func run() async throws { try ServeStorePassthrough.exec("backup", arguments, global) }
  }

  /// `vital serve restore FILE ...` runs in vital-serve too.
  struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "restore", abstract: "Restore a backup into an empty store (SQLite or PostgreSQL, either way).",
      discussion: """
        Restore with the server stopped, into a new --data folder or an empty database, then
        start the server on it. Every device syncs afresh once and sends what the backup lacked.

        Examples:
          vital serve restore vital-backup.jsonl --data ~/vital-server-restored
          vital serve restore vital-backup.jsonl --postgres-file ~/.config/vital/postgres-url
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(
      parsing: .captureForPassthrough, help: "FILE, with --data DIR, --postgres URL or --postgres-file FILE")
    var arguments: [String] = []

    func run() async throws { try ServeStorePassthrough.exec("restore", arguments, global) }
  }
}

/// Hands `vital serve admin|backup|restore ...` to vital-serve. Without a store option (and
/// without VITAL_POSTGRES_URL) it names the SQLite folder `vital serve` uses by default.
enum ServeStorePassthrough {
  static func exec(_ subcommand: String, _ arguments: [String], _ global: GlobalOptions) throws {
    var passed: [String] = []
    // `vital --home DIR serve admin ...`: the folder typed before the command's name counts too.
    var home = global.home ?? Sibling.leadingOptions(CommandLine.arguments).home
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if argument == "--home" {
        home = rest.popFirst()
      } else if argument.hasPrefix("--home=") {
        home = String(argument.dropFirst(7))
      } else {
        passed.append(argument)
      }
    }
    let environment = ProcessInfo.processInfo.environment
    let store = ["--data", "--postgres", "--postgres-file"]
    let named = passed.contains { argument in store.contains { argument == $0 || argument.hasPrefix($0 + "=") } }
    let wantsHelp = passed.contains { $0 == "--help" || $0 == "-h" || $0 == "help" }
    if !named, !wantsHelp, (environment["VITAL_POSTGRES_URL"] ?? "").isEmpty {
      passed += ["--data", Home.resolve(option: home, environment: environment) + "/server"]
    }
    // Flags after the subcommand's name, where vital-serve's commands take them.
    if global.json && !passed.contains("--json") { passed.append("--json") }
    if subcommand == "backup", let now = environment["VITAL_NOW"], !now.isEmpty, !passed.contains("--now") {
      passed += ["--now", now]
    }
    try Sibling.exec("vital-serve", [subcommand] + passed)
  }
}
