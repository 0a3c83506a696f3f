import CLICore
import Foundation
import Replication

/// How set-aside records are shown: the kind of record, its id as lists show it, why, and the
/// command that shortens it.
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
    let fix = commands[record.dataset].map { " (shorten it with 'vital \($0) edit \(id)', then sync)" } ?? ""
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
