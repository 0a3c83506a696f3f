import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Replication
import Schema
import Views

extension Vital {
  struct Undo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "undo",
      abstract: "Take back the last change made on this device, or list the last changes.",
      discussion: """
        An undo is itself a change: it syncs to your other devices, and 'vital undo N' with its \
        number takes it back. Changes made on another device are never undone here; a field \
        changed again since keeps its newer value.

        Examples:
          vital undo --list
          vital undo            # asks before taking back the last change
          vital undo 12 --yes
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The number of the change to take back (see --list); the last one if omitted.") var number: Int64?
    @Flag(help: "Show the last 20 changes instead.") var list = false
    @Flag(help: "Do not ask.") var yes = false

    func validate() throws {
      if list && number != nil { throw ValidationError("--list takes no change number") }
    }

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      ChangeJournal.end(app.db)
      let journal = ChangeJournal(db: app.db, accountID: account.id)
      let human = HumanText(now: app.now, calendar: app.calendar)
      var labels = RecordLabel(db: app.db, accountID: account.id, datasets: VitalSchema.datasets, human: human)
      if list {
        let changes = try journal.recent(limit: 20)
        labels.learn(changes)
        try app.output.show(.array(changes.map { Self.json($0, app: app, all: changes) })) {
          guard !changes.isEmpty else { return "No changes yet on this device." }
          var table = TextTable(["#", "when", "command", "what"])
          for change in changes {
            var what = labels.summary(change)
            if change.undoneBy != nil { what += " (undone)" }
            table.add(["\(change.seq)", human.time(change.at), change.command, what])
          }
          return table.text
        }
        return
      }
      let change: ChangeJournal.Change
      if let number {
        guard let found = try journal.change(seq: number) else { throw ChangeJournal.UndoError.noSuchChange(number) }
        change = found
      } else {
        guard let last = try journal.lastUndoable() else { throw ChangeJournal.UndoError.nothingToUndo }
        change = last
      }
      if change.undoneBy != nil { throw ChangeJournal.UndoError.alreadyUndone(change.seq) }
      // Named before the undo: a record it deletes has no values to name it by after.
      let summary = labels.summary(change)
      guard
        try Confirmation.ask(
          "Undo change \(change.seq), '\(change.command)' of \(human.time(change.at)): \(summary)?", yes: yes)
      else {
        throw Confirmation.Refused(description: "nothing undone")
      }
      let done = try journal.undo(change, datasets: VitalSchema.datasets, now: app.now)
      for reason in done.kept { FileHandle.standardError.write(Data("warning: \(reason)\n".utf8)) }
      let json = JSON.object([
        ("undone", Self.json(done.change, app: app, all: [])),
        ("as", done.undo.map { .int($0.seq) } ?? .null),
        ("kept", .array(done.kept.map(JSON.string))),
      ])
      try app.output.show(json) {
        "undone: \(change.seq) \(change.command): \(summary)"
          + (done.undo.map { "\n(as change \($0.seq); 'vital undo \($0.seq)' takes it back)" } ?? "")
      }
    }

    static func json(_ change: ChangeJournal.Change, app: App, all: [ChangeJournal.Change]) -> JSON {
      func number(_ id: String?) -> JSON {
        guard let id else { return .null }
        return all.first { $0.id == id }.map { .int($0.seq) } ?? .string(id)
      }
      return .object([
        ("number", .int(change.seq)),
        ("at", app.iso(change.at)),
        ("command", .string(change.command)),
        (
          "changes",
          .array(
            change.steps.map { step in
              .object([
                ("action", .string(step.action.rawValue)), ("kind", .string(step.dataset)),
                ("id", step.rowID.isEmpty ? .null : .string(step.rowID)),
                ("fields", .array(step.fields.map(JSON.string))),
              ])
            })
        ),
        ("undone", .bool(change.undoneBy != nil)),
        ("undoes", number(change.undoes)),
      ])
    }
  }
}
