import ArgumentParser
import CLIApp
import CLICore
import Foundation

extension Vital {
  struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve", abstract: "Run the sync server.",
      discussion: """
        Examples:
          vital serve --data ~/vital-server
          vital serve --listen 127.0.0.1:0 --data /tmp/server
          vital serve --postgres-file ~/.config/vital/postgres-url
          VITAL_POSTGRES_URL='postgres://vital:secret@127.0.0.1/vital' vital serve
          vital serve --idle-timeout 15 --max-connections-per-address 1024   # behind a reverse proxy
          vital serve --quota-mb 500 --quota-records 2000000
          vital serve --metrics 127.0.0.1:9090   # Prometheus scrapes http://127.0.0.1:9090/metrics
          vital serve --trusted-proxy 127.0.0.1   # behind nginx on this host: X-Forwarded-For names the client

        The PostgreSQL URL may hold a password: give it by file or in VITAL_POSTGRES_URL, where
        `ps` does not show it. Idle connections close after --idle-timeout seconds; at
        --max-connections (or the open-file limit) and at --max-connections-per-address the
        oldest idle connection makes room for a new one. An address with 20 failed logins or
        refused registrations in 15 minutes gets 429 until the oldest ages out; each refusal is
        one log line for fail2ban (dist/fail2ban). 'vital serve admin' looks after the accounts;
        'vital serve backup' and 'vital serve restore' keep them safe.
        """,
      subcommands: [Admin.self, Backup.self, Restore.self])
    @OptionGroup var global: GlobalOptions
    @Option(help: "Address to listen on; loopback unless you mean otherwise.") var listen = "127.0.0.1:8080"
    // The same options as vital-serve and its admin, backup and restore: one group, checked once.
    @OptionGroup var store: ServeStoreOptions
    @OptionGroup var limits: ServeLimitOptions

    func validate() throws {
      guard HostPort(listen) != nil else { throw ValidationError("--listen takes HOST:PORT, e.g. 127.0.0.1:8080") }
    }

    func run() async throws {
      let environment = ProcessInfo.processInfo.environment
      var arguments = ["--listen", listen] + limits.arguments
      let postgresFromEnvironment = !(environment["VITAL_POSTGRES_URL"] ?? "").isEmpty
      if let postgres = store.postgres {
        arguments += ["--postgres", postgres]
      } else if let postgresFile = store.postgresFile {
        arguments += ["--postgres-file", postgresFile]
      } else if postgresFromEnvironment && store.data == nil {
        // vital-serve reads VITAL_POSTGRES_URL itself: the URL stays out of its arguments.
      } else {
        let folder = store.data ?? Home.resolve(option: global.home, environment: environment) + "/server"
        umask(0o077)
        _ = try Home.prepare(folder)
        arguments += ["--data", folder] + store.encryptionArguments
      }
      if let now = environment["VITAL_NOW"], !now.isEmpty {
        _ = try App.clock(environment)  // refuses a malformed VITAL_NOW here, with the usual message
        arguments += ["--now", now]
      }
      if global.json { arguments.append("--json") }
      try Sibling.exec("vital-serve", arguments)
    }
  }

}

extension Vital {
  /// `vital remote ...` runs in vital-sync, which carries the HTTP client.
  struct RemotePassthrough: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remote",
      abstract: "The sync server for this account: set, join, register, login, status, devices, revoke.")
    @Argument(
      parsing: .captureForPassthrough,
      help:
        "set URL | join URL --email E | register | login | status | devices | revoke DEVICE | encrypt | passphrase | rotate-key | delete, and their options",
      completion: Completion.remoteWords)
    var arguments: [String] = []

    func run() async throws { try Sibling.exec("vital-sync", ["remote"] + arguments) }
  }

  /// `vital sync` runs in vital-sync.
  struct SyncPassthrough: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync", abstract: "Push local changes to the server and pull everyone else's.")
    @Argument(parsing: .captureForPassthrough, help: "--home DIR, --json", completion: Completion.syncWords)
    var arguments: [String] = []

    func run() async throws { try Sibling.exec("vital-sync", ["sync"] + arguments) }
  }
}
