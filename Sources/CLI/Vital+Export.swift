import ArgumentParser
import CLICore
import Foundation
import Health
import Schema

extension Vital {
  enum ExportFormat: String, ExpressibleByArgument, CaseIterable { case json }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write every record of your account as one JSON document (docs/export-format.md).",
      discussion: """
        The document holds your profile and avatar, donations with their vitals, questionnaire \
        results, periods, medications and doses, goals, health samples, workouts, activity \
        summaries, watched places and reminder settings; it ends with a SHA-256 of everything \
        before it, which 'vital import' checks. It holds health data in the clear: keep it as \
        safe as the database.

        Examples:
          vital export --out vital-export.json
          vital export --format json | gzip > vital-export.json.gz
          vital export --out vital-export.json --json     # says what was written
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "json: Vital's own format, which 'vital import' reads back (default).") var format: ExportFormat =
      .json
    @Option(help: "A file to write (default: stdout); written whole or not at all.") var out: String?

    func validate() throws {
      if global.json, out == nil || out == "-" {
        throw ValidationError("--json describes what was written to a file; add --out FILE, or drop --json")
      }
    }

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      let sink = try OutputSink(path: out, app: app)
      let archive = RecordArchive(db: app.db, account: account, datasets: VitalSchema.datasets, now: app.now)
      let counts = try archive.export { try sink.write(bytes: $0) }
      try sink.finish()
      guard let out, out != "-" else { return }
      let json = JSON.object([
        ("out", .string(out)), ("format", .string(format.rawValue)), ("records", .int(counts.total)),
        ("datasets", .object(counts.datasets.map { ($0.name, .int($0.records)) })),
      ])
      try app.output.show(json) { "wrote \(counts.total) records to \(out)" }
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Read a file written by 'vital export' into your account: all or nothing, idempotent by id.",
      discussion: """
        Records already here and equal are left alone, changed ones are updated field by field \
        (and sync as edits), new ones are added; a record deleted on this device stays deleted. \
        A file that was cut short or changed after the export is refused and nothing is written. \
        'vital undo' takes an import back.

        Examples:
          vital import vital-export.json
          gunzip -c vital-export.json.gz | vital import -
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file 'vital export' wrote, or - for stdin.") var file: String

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      let handle = try InputFile.open(file)
      defer { try? handle.close() }
      let archive = RecordArchive(db: app.db, account: account, datasets: VitalSchema.datasets, now: app.now)
      let summary = try archive.importArchive { count in
        guard let data = try handle.read(upToCount: count) else { return [] }
        return [UInt8](data)
      }
      let json = JSON.object([
        ("records", .int(summary.total(\.records))), ("inserted", .int(summary.total(\.inserted))),
        ("updated", .int(summary.total(\.updated))), ("unchanged", .int(summary.total(\.unchanged))),
        ("kept_deleted", .int(summary.total(\.keptDeleted))), ("settings", .int(summary.settings)),
        (
          "datasets",
          .object(
            summary.parts.map {
              (
                $0.dataset,
                .object([
                  ("records", .int($0.records)), ("inserted", .int($0.inserted)), ("updated", .int($0.updated)),
                  ("unchanged", .int($0.unchanged)), ("kept_deleted", .int($0.keptDeleted)),
                ])
              )
            })
        ),
      ])
      try app.output.show(json) {
        let kept = summary.total(\.keptDeleted)
        return "imported \(summary.total(\.records)) records: \(summary.total(\.inserted)) new, "
          + "\(summary.total(\.updated)) updated, \(summary.total(\.unchanged)) unchanged"
          + (kept > 0 ? ", \(kept) deleted here before (left deleted)" : "")
      }
    }
  }
}
