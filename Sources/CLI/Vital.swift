import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Storage
import Sync

struct Vital: AsyncParsableCommand {
  static let version = Release.version

  static let configuration = CommandConfiguration(
    commandName: "vital",
    abstract: "An offline-first personal health record for the terminal.",
    discussion: """
      Vital keeps your blood donations, cycle, medications, lab results, Apple Health data and \
      regional incidence figures in one local SQLite database that you own.
      """,
    version: "vital \(version) (SQLite \(Database.sqliteVersion))",
    subcommands: [
      AccountCommand.self, ProfileCommand.self, Donor.self, Cycle.self, Meds.self, HealthCommand.self, Goals.self,
      Labs.self, AreaCommand.self, Reminders.self, Export.self, Import.self, Report.self, Undo.self,
      RemotePassthrough.self,
      SyncPassthrough.self, Serve.self, WebPassthrough.self,
      DB.self, Unlock.self, Lock.self,
    ]
  )

  @OptionGroup var global: GlobalOptions

  func run() async throws {
    let app = try App(global)
    if try app.accounts.isEmpty {
      try app.output.show(Welcome.firstRun) { Welcome.firstRunText }
    } else {
      let overview = try Overview(app: app)
      try app.output.show(overview.json) { overview.text }
    }
  }
}
