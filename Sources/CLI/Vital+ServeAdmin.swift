import ArgumentParser
import CLICore
import Foundation

extension Vital.Serve {
  /// `vital serve admin ...` runs in vital-serve, which links the server's stores. Without a
  /// store option it looks after the SQLite folder `vital serve` uses by default.
  struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "admin", abstract: "The server's accounts: list, suspend, resume, delete. No value is ever shown.",
      discussion: """
        Run where the server's data is: the SQLite folder of 'vital serve --data' (by default \
        <home>/server), or its PostgreSQL database. Safe while the server runs.

        Examples:
          vital serve admin accounts --data ~/vital-server
          vital serve admin accounts --json
          vital serve admin suspend ann@example.org --postgres-file ~/.config/vital/postgres-url
          vital serve admin resume ann@example.org
          vital serve admin delete old@example.org --yes
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(
      parsing: .captureForPassthrough,
      help:
        "accounts | suspend EMAIL | resume EMAIL | delete EMAIL --yes, with --data DIR, --postgres URL or --postgres-file FILE"
    )
    var arguments: [String] = []

    func run() async throws {
      var passed: [String] = []
      var home = global.home
      var rest = arguments[...]
      while let argument = rest.popFirst() {
        if argument == "--home" {
          home = rest.popFirst()
        } else if argument.hasPrefix("--home=") {
          home = String(argument.dropFirst(7))
        } else {
          passed.append(argument)
        }
      }
      let environment = ProcessInfo.processInfo.environment
      let store = ["--data", "--postgres", "--postgres-file"]
      let named = passed.contains { argument in store.contains { argument == $0 || argument.hasPrefix($0 + "=") } }
      let wantsHelp = passed.contains { $0 == "--help" || $0 == "-h" || $0 == "help" }
      if !named, !wantsHelp, (environment["VITAL_POSTGRES_URL"] ?? "").isEmpty {
        passed += ["--data", Home.resolve(option: home, environment: environment) + "/server"]
      }
      // Flags after the subcommand's name, where vital-serve's admin commands take them.
      if global.json && !passed.contains("--json") { passed.append("--json") }
      try Sibling.exec("vital-serve", ["admin"] + passed)
    }
  }
}
