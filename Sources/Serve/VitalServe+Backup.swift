import ArgumentParser
import CLICore
import Foundation
import Storage
import SyncServer

extension VitalServe {
  struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "backup", abstract: "Write a consistent backup of the server's store, while it serves.",
      discussion: """
        Examples:
          vital serve backup --data ~/vital-server --out vital-backup.jsonl
          vital serve backup --postgres-file ~/.config/vital/postgres-url --out /backups/vital.jsonl
        """)
    @OptionGroup var store: ServeStoreOptions
    @Option(help: "The backup file to write (replaced once complete).", completion: .file()) var out: String
    @Option(help: .hidden) var now: String?
    @Flag(help: "One JSON document.") var json = false

    func run() async throws {
      let out = out
      try OutputTarget.check(out)
      let now = now.flatMap(ISO8601.date(from:)) ?? Date()
      let source = store.data == nil ? "postgresql" : "sqlite"
      let counts = try await AdminStore.run(store) { try await $0.backup(to: out, source: source, now: now) }
      let rows = BackupTable.allCases.map { ($0.rawValue, JSON.int(counts[$0] ?? 0)) }
      try Output(json: json).show(.object([("backup", .string(out)), ("rows", .object(rows))])) {
        "wrote \(out): "
          + BackupTable.allCases.map {
            let n = counts[$0] ?? 0
            return "\(n) \(n == 1 ? String($0.rawValue.dropLast()) : $0.rawValue)"
          }.joined(separator: ", ")
      }
    }
  }

  struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "restore", abstract: "Restore a backup into an empty store (SQLite or PostgreSQL, either way).",
      discussion: """
        Restore with the server stopped, into a new --data folder or an empty database; then start
        the server on it. Devices sync afresh once (their cursors are refused) and send what the
        backup lacked.

        Examples:
          vital serve restore vital-backup.jsonl --data ~/vital-server-restored
          vital serve restore vital-backup.jsonl --postgres-file ~/.config/vital/postgres-url
        """)
    @Argument(help: "A file 'vital serve backup' wrote.", completion: .file()) var file: String
    @OptionGroup var store: ServeStoreOptions
    @Flag(help: "One JSON document.") var json = false

    func run() async throws {
      let file = file
      let source = try await AdminStore.run(store, create: true) {
        try await $0.restore(from: file, rules: KnownRules.all)
      }
      try Output(json: json).show(.object([("restored", .string(file)), ("from", .string(source))])) {
        "restored \(file) (a backup of \(source == "postgresql" ? "PostgreSQL" : "SQLite")); start the server on it"
      }
    }
  }
}
