// vital-sync: `vital remote` and `vital sync`, which `vital` hands over to this binary.
import ArgumentParser
import CLIApp
import CLICore

struct VitalSync: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "vital",
    abstract: "Sync with a vital serve server.",
    subcommands: [Remote.self, SyncCommand.self]
  )
}

await VitalSync.start()
