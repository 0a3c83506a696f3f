import ArgumentParser
import CLICore
import Foundation
import Health

extension Vital.Donor {
  struct GuideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "guide", abstract: "What to do before and after donating, and what defers a donor.")
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try DonorContext(global)
      let sections = Guide.sections(for: c.profile.region)
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
      commandName: "export", abstract: "Write your donation history as CSV or JSON.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "csv (RFC 4180) or json.") var format: Format = .csv
    @Option(help: "A file to write (default: stdout).") var out: String?

    func run() async throws {
      let c = try DonorContext(global)
      let sink = try OutputSink(path: out, app: c.app)
      switch format {
      case .csv:
        try c.store.exportCSV { try sink.write(bytes: $0) }
      case .json:
        try sink.write(JSON.array(try c.store.history().map(c.app.json)).serialized() + "\n")
      }
      try sink.finish()
    }
  }

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Import donations from CSV (the export format); idempotent by id, all or nothing.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The CSV file, or - for stdin.") var file: String

    func run() async throws {
      let c = try DonorContext(global)
      let data = try InputFile.read(file, limit: 256 << 20)
      let summary = try c.store.importCSV(data)
      let json = JSON.object([
        ("rows", .int(summary.rows)), ("inserted", .int(summary.inserted)), ("updated", .int(summary.updated)),
        ("unchanged", .int(summary.unchanged)),
      ])
      try c.app.output.show(json) {
        "imported \(summary.rows) rows: \(summary.inserted) new, \(summary.updated) updated, \(summary.unchanged) unchanged"
      }
    }
  }
}
