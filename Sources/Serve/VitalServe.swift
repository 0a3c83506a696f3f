// vital-serve: the sync server process. `vital serve` checks its options and executes this
// binary, so the `vital` command that runs on every keystroke does not carry the HTTP stack.
import ArgumentParser
import AtRest
import CLICore
import Foundation
import Storage
import SyncServer

@main
struct VitalServe: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "vital-serve", abstract: "The Vital sync server, as `vital serve` runs it.",
    subcommands: [Run.self, Admin.self, Backup.self, Restore.self], defaultSubcommand: Run.self)
}

extension VitalServe {
  struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "run",
      abstract: "Serve (what `vital-serve` does without a subcommand).",
      discussion: "Plain HTTP: keep --listen on loopback or a private network, behind a TLS reverse proxy.")

    @Option(help: "HOST:PORT to listen on; port 0 picks a free one.") var listen: String
    @OptionGroup var store: ServeStoreOptions
    @OptionGroup var limits: ServeLimitOptions
    @Option(help: .hidden) var now: String?
    @Flag(help: "Announce the address as JSON.") var json = false

    func validate() throws {
      let sources = [store.data != nil, store.postgres != nil, store.postgresFile != nil].filter { $0 }.count
      guard sources == 1 || (sources == 0 && Self.environmentURL != nil) else {
        throw ValidationError("give one of --data DIR, --postgres URL, --postgres-file FILE, or set VITAL_POSTGRES_URL")
      }
      guard HostPort(listen) != nil else { throw ValidationError("--listen takes HOST:PORT, e.g. 127.0.0.1:8080") }
      if let now, ISO8601.date(from: now) == nil { throw ValidationError("--now takes an ISO 8601 instant") }
      for block in limits.trustedProxy where CIDR(block) == nil {
        throw ValidationError(
          "--trusted-proxy takes an address or a block such as 10.0.0.0/8 or fd00::/8, not '\(block)'")
      }
    }

    func run() async throws {
      umask(0o077)
      let address = HostPort(listen)!
      var configuration = ServerConfiguration(host: address.host, port: address.port)
      configuration.rules = KnownRules.all
      if let metrics = limits.metrics.flatMap(HostPort.init) {
        configuration.metricsAddress = (metrics.host, metrics.port)
      }
      if let now = now.flatMap(ISO8601.date(from:)) { configuration.now = { now } }
      configuration.registration = Registration(rawValue: limits.registration) ?? .open
      configuration.trustedProxies = limits.trustedProxy.compactMap(CIDR.init)
      configuration.quota = Quota(bytes: limits.quotaMb.map { $0 << 20 }, records: limits.quotaRecords)
      configuration.connections = ConnectionLimits(
        total: limits.maxConnections, perAddress: limits.maxConnectionsPerAddress,
        requestTimeout: .seconds(limits.requestTimeout), idleTimeout: .seconds(limits.idleTimeout))
      do {
        if let url = try store.postgresURL(environment: ProcessInfo.processInfo.environment) {
          let client = try PostgresSyncRepository.makeClient(url: url)
          try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            let repository = try await PostgresSyncRepository.connect(
              client: client, url: url, timeout: .seconds(limits.databaseTimeout))
            try await serve(repository, configuration)
            group.cancelAll()
          }
        } else if let data = store.data {
          try FileManager.default.createDirectory(
            atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
          let path = data + "/server.sqlite"
          try SealedStore.prepare(path: path, keyFile: store.keyFile)
          try await serve(try SQLiteSyncRepository(path: path), configuration)
        }
      } catch {
        // One line, as every Vital error; the server's own errors carry no request data.
        FileHandle.standardError.write(
          Data("error: the server stopped: \(String(describing: error).prefix(300))\n".utf8))
        throw ExitCode.failure
      }
    }

    /// `VITAL_POSTGRES_URL`, read by this process itself so that the URL never sits in its arguments.
    static var environmentURL: String? {
      ProcessInfo.processInfo.environment["VITAL_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private func serve(_ repository: any SyncRepository, _ configuration: ServerConfiguration) async throws {
      let json = json
      let host = HostPort(listen)?.urlHost ?? configuration.host
      let metricsHost = limits.metrics.flatMap(HostPort.init)?.urlHost ?? ""
      let app = buildApplication(
        configuration: configuration, repository: repository,
        onRunning: { port in
          let line = json ? "{\"listening\": \"http://\(host):\(port)\"}\n" : "listening on http://\(host):\(port)\n"
          FileHandle.standardOutput.write(Data(line.utf8))
        },
        onMetricsRunning: { port in
          let line =
            json
            ? "{\"metrics\": \"http://\(metricsHost):\(port)/metrics\"}\n"
            : "metrics on http://\(metricsHost):\(port)/metrics\n"
          FileHandle.standardOutput.write(Data(line.utf8))
        })
      try await app.runService()
    }
  }
}
