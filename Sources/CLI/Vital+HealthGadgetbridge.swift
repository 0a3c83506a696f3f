import CLIApp
import CLICore
import Core
import Foundation
import Interchange

extension Vital.HealthCommand.Import {
  /// `vital health import Gadgetbridge.db`: the file opened read-only, what it held counted.
  func gadgetbridge(_ app: App, _ accountID: String) throws {
    let summary = try GadgetbridgeImport(db: app.db, accountID: accountID, now: app.now).run(path: file)
    let json = JSON.object([
      ("format", .string("gadgetbridge")), ("rows", .int(summary.rows)), ("inserted", .int(summary.inserted)),
      ("duplicates", .int(summary.duplicates)), ("steps", .int(summary.steps)),
      ("heart_rates", .int(summary.heartRates)), ("sleep_stretches", .int(summary.sleepStretches)),
      ("skipped", .int(summary.skipped)), ("devices", .array(summary.devices.map(JSON.string))),
      ("tables", .object(summary.tables.sorted { $0.key < $1.key }.map { ($0.key, JSON.int($0.value)) })),
      ("not_read", .object(summary.notRead.sorted { $0.key < $1.key }.map { ($0.key, JSON.int($0.value)) })),
    ])
    try app.output.show(json) {
      var text =
        "imported \(HumanText.count(summary.rows, "row")) from Gadgetbridge"
        + (summary.devices.isEmpty ? "" : " (\(summary.devices.joined(separator: ", ")))")
        + ": \(summary.inserted) new records"
        + (summary.duplicates > 0 ? ", \(summary.duplicates) kept already or repeated in the file" : "") + "; "
        + "\(HumanText.count(summary.steps, "minute")) with steps, \(HumanText.count(summary.heartRates, "heart rate reading")), "
        + "\(HumanText.count(summary.sleepStretches, "stretch", plural: "stretches")) of sleep"
      if summary.skipped > 0 { text += "; \(summary.skipped) rows left out (a time no device could have written)" }
      if !summary.notRead.isEmpty {
        text +=
          "\nnot read (Vital does not know these tables yet): "
          + summary.notRead.sorted { $0.key < $1.key }.map { "\($0.key) (\(HumanText.count($0.value, "row")))" }
          .joined(separator: ", ")
      }
      return text
    }
  }
}
