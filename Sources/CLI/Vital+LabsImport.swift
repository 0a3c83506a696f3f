import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records

extension Vital.Labs {
  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import", abstract: "Import results from CSV: test,value,unit,at[,lab,range,note]; all or nothing.",
      discussion: """
        Each row is read as 'vital labs add' reads its arguments: a test of the catalogue, its \
        value, its unit (empty for a test of one unit), and when (a date, or a date and time). \
        lab, range and note may follow, in any order. The first bad row refuses the whole file. \
        A row you already have (the same test, time and value) is not added again.

        Examples:
          vital labs import results.csv
          printf 'test,value,unit,at,lab\\nferritin,35,ng/mL,2026-11-20,City Lab\\n' | vital labs import -
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The CSV file, or - for stdin.") var file: String
    @Flag(help: "Keep values outside anything a test can be (check them first).") var force = false

    func run() async throws {
      let c = try LabsContext(global)
      let data = try InputFile.read(file, limit: 256 << 20)
      let summary = try c.store.importCSV(data, force: force, donations: try DonationStore(c.store.scope).measured())
      let json = JSON.object([
        ("rows", .int(Int64(summary.rows))), ("inserted", .int(Int64(summary.inserted))),
        ("unchanged", .int(Int64(summary.unchanged))),
      ])
      try c.app.output.show(json) {
        "imported \(HumanText.count(summary.rows, "row")): \(summary.inserted) new, \(summary.unchanged) already here"
      }
    }
  }
}
