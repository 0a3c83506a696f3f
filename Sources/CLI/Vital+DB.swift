import ArgumentParser
import Auth
import CLIApp
import CLICore
import Foundation
import Schema
import Storage

extension Vital {
  struct DB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "db",
      abstract: "Check or back up the local database.",
      subcommands: [Check.self, Backup.self]
    )
  }
}

extension Vital.DB {
  struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Run SQLite's integrity check and report the schema version.",
      discussion: """
        Examples:
          vital db check
          vital db check --json
        """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let app = try App(global)
      let problems = try app.db.integrityProblems()
      let version = try VitalSchema.migrator.version(of: app.db)
      let latest = VitalSchema.migrator.migrations.count
      let duplicates = try AccountStore.duplicateEmails(app.db)
      let document: JSON = .object([
        ("ok", .bool(problems.isEmpty)),
        ("integrity", .array(problems.isEmpty ? [.string("ok")] : problems.map(JSON.string))),
        ("schema_version", .int(version)),
        ("latest_schema_version", .int(latest)),
        ("sqlite_version", .string(Database.sqliteVersion)),
        ("path", .string(app.home.databasePath)),
        ("duplicate_emails", .array(duplicates.map { .array($0.map(JSON.string)) })),
      ])
      try app.output.show(document) {
        """
        database  \(app.home.databasePath)
        integrity \(problems.isEmpty ? "ok" : "\(problems.count) problems")
        schema    \(version) of \(latest)
        sqlite    \(Database.sqliteVersion)
        """
          + duplicates.map {
            "\nwarning: accounts \($0.joined(separator: " and ")) are one address written two ways (Unicode); both are kept: log in to each as stored, keep one and delete the other with 'vital account delete'"
          }.joined()
      }
      if !problems.isEmpty { throw CLIError.integrityFailed(problems) }
    }
  }

  struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "backup",
      abstract: "Copy the database to FILE with SQLite's online backup (safe while in use).",
      discussion: """
        Examples:
          vital db backup ~/vital-backup.sqlite
          vital db backup ~/vital-backup.sqlite --force
          vital db backup ~/vital-backup.sqlite --without-secrets

        The copy holds what this data folder holds, secrets included: the login session, the
        sync server's token and the end-to-end sync key. --without-secrets leaves them out (the
        records stay; a restored copy asks for a login and the sync passphrase again).
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Where to write the copy; it must not exist yet unless --force is given.")
    var file: String

    @Flag(help: "Replace FILE if it exists.")
    var force = false

    @Flag(help: "Leave out the login session, the server token and the sync key.")
    var withoutSecrets = false

    func run() async throws {
      let app = try App(global)
      try OutputTarget.check(file)
      try app.db.backup(to: file, replacing: force)
      if withoutSecrets {
        do {
          try VitalSchema.removeSecrets(try Database(path: file))
        } catch {
          // A copy that still holds the secrets is not what was asked for.
          unlink(file)
          throw error
        }
      }
      let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
      try app.output.show(
        .object([("path", .string(file)), ("bytes", .int(bytes)), ("secrets", .bool(!withoutSecrets))])
      ) {
        "backed up \(app.home.databasePath) to \(file) (\(bytes) bytes)"
          + (withoutSecrets
            ? "; without the session, server token and sync key"
            : "\nnote: the copy holds your login session, the sync server's token and the sync key: keep it as safe as this folder, or use --without-secrets")
      }
    }
  }
}
