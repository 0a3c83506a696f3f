import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Interchange
import Records
import Schema

extension Vital {
  enum ExportFormat: String, ExpressibleByArgument, CaseIterable { case json, fhir, csv }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract:
        "Write every record of your account as one JSON document, as a FHIR R4 bundle for other programs, or as CSV.",
      discussion: """
        The document holds your profile and avatar, donations with their vitals, questionnaire \
        results, periods, medications and doses, goals, health samples, workouts, activity \
        summaries, watched places and reminder settings; it ends with a SHA-256 of everything \
        before it, which 'vital import' checks. It holds health data in the clear, also when the \
        database is encrypted at rest ('vital db encrypt'): keep it as safe as the database.

        --format fhir writes a FHIR R4 Bundle (docs/fhir.md): you as the Patient (no email \
        unless --with-contact), donations as Procedures with their measurements, daily steps, \
        distance, weight and heart rate, medications with every dose, and periods. 'vital import' \
        reads such a bundle back.

        --format csv writes one kind of record (--kind) to --out or stdout, or without --kind every \
        kind into the folder --out names, a file each: donations, doses, periods, notes, samples, \
        daily-totals, goals (their headers: docs/cli.md, "CSV").

        Examples:
          vital export --out vital-export.json
          vital export --format json | gzip > vital-export.json.gz
          vital export --out vital-export.json --json     # says what was written
          vital export --format fhir --since 2026-01-01 --out for-my-doctor.json
          vital export --format csv --kind periods --out periods.csv
          vital export --format csv --out vital-csv/
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "json: Vital's own format (default); fhir: a FHIR R4 Bundle.") var format: ExportFormat = .json
    @Option(help: "A file to write (default: stdout); written whole or not at all.") var out: String?
    @Option(help: "With --format fhir: only what happened from this date (YYYY-MM-DD) on.") var since: String?
    @Flag(help: "With --format fhir: your email as the Patient's contact.") var withContact = false
    @Option(
      help:
        "With --format csv: donations, doses, periods, notes, samples, daily-totals or goals (default: all, into the folder --out)."
    )
    var kind: CSVExport.Kind?

    func validate() throws {
      if kind != nil, format != .csv { throw ValidationError("--kind goes with --format csv") }
      if format == .csv {
        if since != nil || withContact { throw ValidationError("--since and --with-contact go with --format fhir") }
        if kind == nil, out == nil || out == "-" {
          throw ValidationError("--format csv without --kind writes a file per kind: name a folder with --out DIR")
        }
      }
      if format == .json, since != nil || withContact {
        throw ValidationError("--since and --with-contact go with --format fhir; the json export holds every record")
      }
      if let since, LocalDate(since) == nil { throw ValidationError("--since takes a date, YYYY-MM-DD") }
      if global.json, out == nil || out == "-" {
        throw ValidationError("--json describes what was written to a file; add --out FILE, or drop --json")
      }
    }

    func run() async throws {
      let app = try App(global)
      if format == .csv {
        if let kind { return try CSVExportCommand.run(kind, out: out, app: app) }
        return try CSVExportCommand.runAll(into: out!, app: app)
      }
      let account = try app.requireAccount()
      let sink = try OutputSink(path: out, app: app)
      let counts: RecordArchive.Counts
      switch format {
      case .json:
        let archive = RecordArchive(db: app.db, account: account, datasets: VitalSchema.datasets, now: app.now)
        counts = try archive.export { try sink.write(bytes: $0) }
      case .csv:
        return
      case .fhir:
        let records = try FHIRRecords.load(
          db: app.db, account: account, now: app.now, calendar: app.calendar, since: since.flatMap { LocalDate($0) })
        let bundle = FHIRBundle.make(records, options: .init(withContact: withContact))
        try sink.write(bundle.serialized() + "\n")
        counts = FHIRBundle.counts(bundle)
      }
      try sink.finish()
      guard let out, out != "-" else { return }
      let json = JSON.object([
        ("out", .string(out)), ("format", .string(format.rawValue)), ("records", .int(counts.total)),
        ("datasets", .object(counts.datasets.map { ($0.name, .int($0.records)) })),
      ])
      try app.output.show(json) { "wrote \(HumanText.count(counts.total, "record")) to \(out)" }
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract:
        "Read a file written by 'vital export' (json or fhir) into your account: all or nothing, idempotent by id.",
      discussion: """
        Records already here and equal are left alone, changed ones are updated field by field \
        (and sync as edits), new ones are added; a record deleted on this device stays deleted. \
        A file that was cut short or changed after the export is refused and nothing is written. \
        'vital undo' takes an import back.

        A FHIR bundle written by 'vital export --format fhir' brings back the profile, donations \
        with their measurements, periods, medications and the doses taken or skipped; daily totals \
        are sums of health samples and are not imported.

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
      // Vital's own export and FHIR bundles both stream: an export in one pass, a bundle in two
      // (stdin is kept in a temporary file for the second).
      var head: [UInt8]? = [UInt8](try handle.read(upToCount: 1 << 16) ?? Data())
      let summary: RecordArchive.ImportSummary
      if !head!.starts(with: Array("{\"format\":".utf8)), Self.looksLikeBundle(head!) {
        let spooled = file == "-" ? try Self.spool(head!, handle) : nil
        defer { if let spooled { unlink(spooled) } }
        let path = spooled ?? file
        summary = try FHIRImport(db: app.db, account: account, now: app.now, calendar: app.calendar).run {
          let pass = try InputFile.open(path)
          return { count in [UInt8](try pass.read(upToCount: count) ?? Data()) }
        }
      } else {
        let archive = RecordArchive(db: app.db, account: account, datasets: VitalSchema.datasets, now: app.now)
        summary = try archive.importArchive { count in
          if let first = head {
            head = nil
            return first
          }
          return [UInt8](try handle.read(upToCount: count) ?? Data())
        }
      }
      let json = JSON.object([
        ("records", .int(summary.total(\.records))), ("inserted", .int(summary.total(\.inserted))),
        ("updated", .int(summary.total(\.updated))), ("unchanged", .int(summary.total(\.unchanged))),
        ("kept_deleted", .int(summary.total(\.keptDeleted))), ("settings", .int(summary.settings)),
        ("skipped", .int(summary.skipped)),
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
          + (summary.skipped == 1 ? "; 1 resource of the bundle is not a record Vital keeps" : "")
          + (summary.skipped > 1 ? "; \(summary.skipped) resources of the bundle are not records Vital keeps" : "")
      }
    }

    /// A JSON object that names a resource type early on: a FHIR resource, not Vital's export.
    static func looksLikeBundle(_ head: [UInt8]) -> Bool {
      guard head.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "{") else { return false }
      let key = Array("\"resourceType\"".utf8)
      return head.indices.contains { head[$0...].starts(with: key) }
    }

    /// Standard input kept in a temporary file, for a second pass; the file's path.
    static func spool(_ head: [UInt8], _ input: FileHandle) throws -> String {
      var template = Array((NSTemporaryDirectory() + "/vital-import-XXXXXX").utf8CString)
      let fd = mkstemp(&template)
      guard fd >= 0 else { throw CLIError.cannotRead("-", reason: "no room for a temporary copy") }
      let path = String(cString: template)
      let out = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
      do {
        try out.write(contentsOf: head)
        while let part = try input.read(upToCount: 1 << 20), !part.isEmpty { try out.write(contentsOf: part) }
        try out.close()
      } catch {
        unlink(path)
        throw CLIError.cannotRead("-", reason: "no room for a temporary copy")
      }
      return path
    }
  }
}
