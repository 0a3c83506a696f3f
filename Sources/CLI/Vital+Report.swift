import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records
import Storage
import Views

extension Vital {
  struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "report",
      abstract: "Write one page a doctor can read: profile, donations, cycle, medications, steps, places.",
      discussion: """
        The page is one self-contained HTML file: charts are inline SVG, nothing is fetched from \
        the network and no script runs; printed, it is laid out for A4. --pdf prints it through a \
        headless Chromium (Debian: 'apt install chromium'). Sections with nothing to show say so. \
        The file is plain, also when the database is encrypted at rest: it is meant to be handed on.

        Examples:
          vital report --out report.html
          vital report --from 2026-01-01 --to 2026-06-30 --out half-year.html
          vital report --pdf --out report.pdf
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The first day (YYYY-MM-DD; default: a year before --to).") var from: String?
    @Option(help: "The last day (YYYY-MM-DD; default: today).") var to: String?
    @Option(help: "A file to write (default: stdout for HTML).") var out: String?
    @Flag(help: "Print the page to PDF through a headless Chromium (needs --out).") var pdf = false

    func validate() throws {
      for (name, value) in [("--from", from), ("--to", to)] where value != nil && LocalDate(value!) == nil {
        throw ValidationError("\(name) takes a date, YYYY-MM-DD")
      }
      if let from, let to, LocalDate(from)! > LocalDate(to)! { throw ValidationError("--from is after --to") }
      if pdf, out == nil || out == "-" { throw ValidationError("--pdf writes a file: add --out report.pdf") }
      if global.json { throw ValidationError("a report is a page, not JSON: drop --json") }
    }

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      let today = LocalDate(app.now, in: app.calendar)
      let last = to.flatMap { LocalDate($0) } ?? today
      let first =
        from.flatMap { LocalDate($0) } ?? last.adding(months: -12, in: app.calendar).adding(days: 1, in: app.calendar)
      let data = try ReportData.load(
        db: app.db, account: account, now: app.now, calendar: app.calendar, from: first, to: last)
      let page = ReportPage.html(data, generated: app.now)
      if pdf {
        try ReportPrinter.printPDF(html: page, to: out!)
      } else {
        let sink = try OutputSink(path: out, app: app)
        try sink.write(page)
        try sink.finish()
      }
      if let out, out != "-" {
        Output.write("wrote the report for \(HumanText.date(first)) to \(HumanText.date(last)) to \(out)")
      }
    }
  }
}
