import CLIApp
import CLICore
import Foundation
import Replication

/// How set-aside records are shown: the kind of record, its id as lists show it, why, and the
/// command that shortens it (too large) or corrects it (a value the server's rules refuse).
enum SetAsideReport {
  /// The command family that edits each dataset's records.
  static let commands = [
    "donation": "donor", "questionnaire": "donor questionnaire", "period": "cycle", "medication": "meds",
    "dose": "meds dose", "goal": "goals", "area_watch": "area watch", "health_sample": "health",
    "profile": "profile",
  ]

  static func line(_ record: Replica.SetAside) -> String {
    let kind = record.dataset.replacingOccurrences(of: "_", with: " ")
    let id = String(record.id.prefix(12))
    let verb = record.isInvalid ? "correct" : "shorten"
    let fix = commands[record.dataset].map { " (\(verb) it with 'vital \($0) edit \(id)', then sync)" } ?? ""
    return "\(kind) \(id) set aside: \(record.reason)\(fix)"
  }

  static func json(_ records: [Replica.SetAside], app: App) -> JSON {
    .array(
      records.map {
        .object([
          ("dataset", .string($0.dataset)), ("id", .string($0.id)), ("reason", .string($0.reason)),
          ("bytes", .int($0.bytes)), ("at", app.iso($0.at)),
        ])
      })
  }

  /// One `warning:` line per record on stderr, for `vital sync`.
  static func warn(_ records: [Replica.SetAside]) {
    for record in records { FileHandle.standardError.write(Data("warning: \(line(record))\n".utf8)) }
  }
}

/// How records refused on arrival are shown: the kind, the id as lists show it, the device that
/// wrote the bad value, and why.
enum RefusedReport {
  static func line(_ r: Replica.Refusal) -> String {
    let kind = r.dataset.replacingOccurrences(of: "_", with: " ")
    return
      "a \(kind) (\(r.id.prefix(12))) from device \(r.device.prefix(8)) was not applied: \(r.field) is \(r.reason); it stays out until a valid version of it arrives"
  }

  static func json(_ records: [Replica.Refusal], app: App) -> JSON {
    .array(
      records.map {
        .object([
          ("dataset", .string($0.dataset)), ("id", .string($0.id)), ("field", .string($0.field)),
          ("reason", .string($0.reason)), ("device", .string($0.device)), ("at", app.iso($0.at)),
        ])
      })
  }

  static func warn(_ records: [Replica.Refusal]) {
    for record in records {
      FileHandle.standardError.write(Data("warning: \(Output.text(line(record)))\n".utf8))
    }
  }

  /// The refusals in `after` that `before` did not hold: what one sync refused.
  static func new(_ after: [Replica.Refusal], since before: [Replica.Refusal]) -> [Replica.Refusal] {
    let old = Set(before.map { "\($0.dataset)/\($0.id)/\($0.field)/\($0.reason)/\($0.device)" })
    return after.filter { !old.contains("\($0.dataset)/\($0.id)/\($0.field)/\($0.reason)/\($0.device)") }
  }
}
