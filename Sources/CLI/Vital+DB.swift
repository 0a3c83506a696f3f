import ArgumentParser
import AtRest
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
      abstract: "Check, back up or encrypt the local database.",
      subcommands: [Check.self, Backup.self, Encrypt.self, Decrypt.self, Passphrase.self, Recover.self]
    )
  }
}

extension Vital.DB {
  struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Run SQLite's integrity check and report the schema version.",
      discussion: """
        On an encrypted database it first reads every page of the file and opens it with the \
        key, naming each page that does not open (changed on the disk, or from another file).

        Examples:
          vital db check
          vital db check --json
        """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let sealed = try Self.checkSealedPages(global)
      let app: App
      let problems: [String]
      do {
        app = try App(global)
        problems = try app.db.integrityProblems()
      } catch let error as StorageError where error.primaryCode == StorageError.corrupt {
        // Every page opens (or the file is plain) and SQLite still cannot read it: cut at a
        // page's end, or changed in a way only the tree shows.
        throw CLIError.needsInput(
          "the database file is damaged: SQLite cannot read it (database disk image is malformed: cut short, or changed on the disk); restore a backup made with 'vital db backup'"
        )
      }
      let damagedHeaderCopies = sealed == nil ? [] : try AtRestHeader.damagedSlots(fileAt: app.home.databasePath)
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
        ("encrypted", .bool(sealed != nil)), ("pages_checked", sealed.map { .int($0.pages) } ?? .null),
        ("damaged_header_copies", sealed == nil ? .null : .int(damagedHeaderCopies.count)),
      ])
      try app.output.show(document) {
        """
        database  \(app.home.databasePath)
        encrypted \(sealed.map { "yes: all \($0.pages) pages open with its key" } ?? "no")
        integrity \(problems.isEmpty ? "ok" : "\(problems.count) problems")
        schema    \(version) of \(latest)
        sqlite    \(Database.sqliteVersion)
        """
          + (damagedHeaderCopies.isEmpty
            ? ""
            : "\nwarning: one of the two copies of the encryption header is damaged (the other opens the database); 'vital db passphrase' writes both again")
          + duplicates.map {
            "\nwarning: accounts \($0.joined(separator: " and ")) are one address written two ways (Unicode); both are kept: log in to each as stored, keep one and delete the other with 'vital account delete'"
          }.joined()
      }
      if !problems.isEmpty { throw CLIError.integrityFailed(problems) }
    }

    /// Every page of an encrypted database's file opened with its key before SQLite reads any:
    /// a damaged page 1 would stop the open itself. Nil for a plain database.
    static func checkSealedPages(_ global: GlobalOptions) throws -> (pages: Int, damaged: [Int])? {
      let context = try AtRestContext.open(global)
      guard context.database.isSealed else { return nil }
      do {
        try context.prepare()
      } catch AtRestError.locked {
        throw CLIError.needsInput(
          "the database is encrypted and locked; run 'vital unlock', then 'vital db check' opens every page with its key"
        )
      }
      // SQLite first rolls back a journal a crash left, and finishes copying its log into the
      // file: until then a page a crash left half-way (a hole the journal cuts off) is no damage.
      if let db = try? Database(path: context.database.path) {
        _ = try? db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      }
      let result = try context.database.damagedPages()
      guard !result.damaged.isEmpty else { return result }
      let shown = result.damaged.prefix(20).map(String.init).joined(separator: ", ")
      let more = result.damaged.count > 20 ? " and \(result.damaged.count - 20) more" : ""
      try context.output.show(
        .object([
          ("ok", .bool(false)), ("encrypted", .bool(true)), ("pages_checked", .int(result.pages)),
          ("damaged_pages", .array(result.damaged.map { .int($0) })), ("path", .string(context.database.path)),
        ])
      ) {
        "database  \(context.database.path)\nencrypted yes: \(result.damaged.count) of \(result.pages) pages do not open with its key"
      }
      throw CLIError.needsInput(
        result.damaged.count == result.pages
          ? "no page of the database opens with the key its header holds: the header belongs to another database, or the pages do; restore a backup"
          : "the database file is damaged at page\(result.damaged.count == 1 ? "" : "s") \(shown)\(more); restore a backup"
      )
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

        The copy of an encrypted database is encrypted with the same key: it opens with the
        passphrase and recovery key the database has now. --plain writes an ordinary SQLite
        file instead, which anyone holding it can read.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Where to write the copy; it must not exist yet unless --force is given.")
    var file: String

    @Flag(help: "Replace FILE if it exists.")
    var force = false

    @Flag(help: "Leave out the login session, the server token and the sync key.")
    var withoutSecrets = false

    @Flag(help: "Write an encrypted database's copy as a plain SQLite file.")
    var plain = false

    func run() async throws {
      let app = try App(global)
      try OutputTarget.check(file)
      try app.db.backup(to: file, replacing: force, plain: plain)
      if app.db.isSealed && !plain { SealedPages.alias(databaseAt: file, sameAs: app.home.databasePath) }
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
      let encrypted = app.db.isSealed && !plain
      try app.output.show(
        .object([
          ("path", .string(file)), ("bytes", .int(bytes)), ("secrets", .bool(!withoutSecrets)),
          ("encrypted", .bool(encrypted)),
        ])
      ) {
        "backed up \(app.home.databasePath) to \(file) (\(bytes) bytes\(encrypted ? ", encrypted" : ""))"
          + (withoutSecrets
            ? "; without the session, server token and sync key"
            : "\nnote: the copy holds your login session, the sync server's token and the sync key: keep it as safe as this folder, or use --without-secrets")
      }
    }
  }
}
