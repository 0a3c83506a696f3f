import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital.Donor {
  struct GuideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "guide", abstract: "What to do before and after donating, and what defers a donor.",
      discussion: """
        Examples:
          vital donor guide
          vital donor guide --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try DonorContext(global)
      let profile = try c.profile
      let sections = Guide.sections(for: profile.region)
      let json = JSON.array(
        sections.map { .object([("title", .string($0.title)), ("lines", .array($0.lines.map(JSON.string)))]) })
      try c.app.output.show(json) {
        sections.map { ([$0.title] + $0.lines.map { "  - \($0)" }).joined(separator: "\n") }.joined(separator: "\n\n")
      }
    }
  }

  enum Format: String, ExpressibleByArgument, CaseIterable { case csv, json }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export", abstract: "Write your donation history as CSV or JSON.",
      discussion: """
        Examples:
          vital donor export --out donations.csv
          vital donor export --json
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "csv (RFC 4180) or json (default: csv; json with --json).") var format: Format?
    @Option(help: "A file to write (default: stdout).") var out: String?

    func validate() throws {
      if global.json, format == .csv, out == nil || out == "-" {
        throw ValidationError("--json prints one JSON document; write the CSV to a file with --out, or drop --json")
      }
    }

    func run() async throws {
      let c = try DonorContext(global)
      let toFile = out != nil && out != "-"
      let format = self.format ?? (global.json && !toFile ? .json : .csv)
      let sink = try OutputSink(path: out, app: c.app)
      let rows: Int
      switch format {
      case .csv:
        rows = try c.store.exportCSV { try sink.write(bytes: $0) }
      case .json:
        let history = try c.store.history()
        rows = history.count
        try sink.write(JSON.array(history.map(c.app.json)).serialized() + "\n")
      }
      try sink.finish()
      // With a file, stdout says what was written: a line, or with --json one document.
      if toFile {
        try c.app.output.show(
          JSON.object([("out", .string(out!)), ("format", .string(format.rawValue)), ("rows", .int(rows))])
        ) { "wrote \(HumanText.count(rows, "row")) of donations to \(out!)" }
      }
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Import donations from CSV (the export format); idempotent by id, all or nothing.",
      discussion: """
        Examples:
          vital donor import donations.csv
          vital donor export | vital donor import -
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The CSV file, or - for stdin.") var file: String

    func run() async throws {
      let c = try DonorContext(global)
      let data = try InputFile.read(file, limit: 256 << 20)
      let summary = try c.store.importCSV(data)
      let json = JSON.object([
        ("rows", .int(summary.rows)), ("inserted", .int(summary.inserted)), ("updated", .int(summary.updated)),
        ("unchanged", .int(summary.unchanged)), ("kept_deleted", .int(summary.keptDeleted)),
      ])
      try c.app.output.show(json) {
        "imported \(HumanText.count(summary.rows, "row")): \(summary.inserted) new, \(summary.updated) updated, \(summary.unchanged) unchanged"
          + (summary.keptDeleted > 0 ? ", \(summary.keptDeleted) deleted here before (left deleted)" : "")
      }
    }
  }
}
