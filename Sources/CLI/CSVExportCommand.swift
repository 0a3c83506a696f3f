import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Interchange
import Records

extension CSVExport.Kind: ExpressibleByArgument {}

/// What each kind's `export` and `vital export --format csv` share: one kind to a file or
/// stdout, or every kind into a folder, and a line saying where it went.
enum CSVExportCommand {
  /// Writes `kind` to `out` (stdout for nil or `-`); says what was written when it went to a
  /// file: a line, or with `--json` one document.
  static func run(_ kind: CSVExport.Kind, out: String?, app: App) throws {
    let export = CSVExport(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
    let sink = try OutputSink(path: out, app: app)
    let rows = try export.write(kind) { try sink.write(bytes: $0) }
    try sink.finish()
    guard let out, out != "-" else { return }
    try app.output.show(
      .object([
        ("out", .string(out)), ("format", .string("csv")), ("kind", .string(kind.rawValue)), ("rows", .int(rows)),
      ])
    ) { "wrote \(HumanText.count(rows, "row")) of \(kind.rawValue) to \(out)" }
  }

  /// Every kind into `folder` (made if missing), one file each, each written whole or not at all.
  static func runAll(into folder: String, app: App) throws {
    let export = CSVExport(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw CLIError.cannotWrite(folder, reason: "not a folder; --out names a folder for every kind")
      }
    } else {
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw CLIError.cannotWrite(folder, reason: "cannot make the folder")
      }
    }
    var files: [(kind: CSVExport.Kind, path: String, rows: Int)] = []
    for kind in CSVExport.Kind.allCases {
      let path = (folder as NSString).appendingPathComponent(kind.fileName)
      let sink = try OutputSink(path: path, app: app)
      let rows = try export.write(kind) { try sink.write(bytes: $0) }
      try sink.finish()
      files.append((kind, path, rows))
    }
    let json = JSON.object([
      ("out", .string(folder)), ("format", .string("csv")),
      (
        "files",
        .array(
          files.map {
            .object([("kind", .string($0.kind.rawValue)), ("path", .string($0.path)), ("rows", .int($0.rows))])
          })
      ),
    ])
    try app.output.show(json) {
      (["wrote \(HumanText.count(files.count, "file")) to \(folder):"]
        + files.map { "  \($0.kind.fileName)  \(HumanText.count($0.rows, "row"))" }).joined(separator: "\n")
    }
  }
}

/// `vital cycle export`, `vital meds export`, `vital health export`, `vital goals export`.
struct KindExportOptions: ParsableArguments {
  @Option(help: "A file to write (default: stdout); written whole or not at all, in the clear.") var out: String?
}

extension Vital.Cycle {
  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export", abstract: "Write your periods (or daily notes) as CSV.",
      discussion: """
        periods: id,start,end,days,excluded; notes: date,flow,temperature_c,temperature_time,\
        temperature_excluded,mucus,pain,mood,sex,text (pain and mood words joined by ';').

        Examples:
          vital cycle export --out periods.csv
          vital cycle export --kind notes > notes.csv
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "periods (default) or notes.") var kind: Kind = .periods
    @OptionGroup var options: KindExportOptions

    enum Kind: String, ExpressibleByArgument, CaseIterable { case periods, notes }

    func run() async throws {
      try CSVExportCommand.run(kind == .periods ? .periods : .notes, out: options.out, app: try App(global))
    }
  }
}

extension Vital.Meds {
  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export", abstract: "Write every dose (taken, skipped, missed) as CSV.",
      discussion: """
        Header: scheduled_at,medication,dose,status,at (missed doses have an empty at).

        Examples:
          vital meds export --out doses.csv
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: KindExportOptions

    func run() async throws { try CSVExportCommand.run(.doses, out: options.out, app: try App(global)) }
  }
}

extension Vital.HealthCommand {
  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export", abstract: "Write your samples, or the daily totals, as CSV.",
      discussion: """
        samples: id,type,value,unit,source,start,end (type as 'health add' names it, else the \
        Apple Health identifier); daily-totals: date,steps,distance_m,energy_kcal,exercise_min, \
        one row per day with data, counted as 'health summary' counts it (an empty cell: no \
        data that day, not 0).

        Examples:
          vital health export --kind daily-totals --out days.csv
          vital health export --out samples.csv
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "samples (default) or daily-totals.") var kind: Kind = .samples
    @OptionGroup var options: KindExportOptions

    enum Kind: String, ExpressibleByArgument, CaseIterable {
      case samples
      case dailyTotals = "daily-totals"
    }

    func run() async throws {
      try CSVExportCommand.run(kind == .samples ? .samples : .dailyTotals, out: options.out, app: try App(global))
    }
  }
}

extension Vital.Goals {
  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export", abstract: "Write your goals as CSV.",
      discussion: """
        Header: id,type,target,unit,title,description.

        Examples:
          vital goals export --out goals.csv
        """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: KindExportOptions

    func run() async throws { try CSVExportCommand.run(.goals, out: options.out, app: try App(global)) }
  }
}
