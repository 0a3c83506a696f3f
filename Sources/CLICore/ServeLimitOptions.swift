import ArgumentParser

/// The server's bounds and side addresses, as both `vital serve` and the `vital-serve` it
/// executes take them: one description, one check, and the arguments that carry them from one
/// to the other.
public struct ServeLimitOptions: ParsableArguments {
  @Option(help: "Seconds a connection that sends nothing stays open.") public var idleTimeout = 30
  @Option(help: "Seconds a request may take to arrive, from its first line to its last byte.")
  public var requestTimeout = 60
  @Option(help: "Connections open at once (at most what the open-file limit allows).") public var maxConnections = 4096
  @Option(help: "Connections open at once from one address.") public var maxConnectionsPerAddress = 256
  @Option(help: "Seconds to wait for PostgreSQL at start before giving up.") public var databaseTimeout = 30
  @Option(help: "MiB each account may keep on the server (records and avatars); none by default.")
  public var quotaMb: Int?
  @Option(help: "Records each account may keep on the server; none by default.") public var quotaRecords: Int?
  @Option(help: "Who may create an account: open, closed, or invite ('vital serve admin invite' makes codes).")
  public var registration = "open"
  @Option(help: "HOST:PORT to serve Prometheus metrics on (GET /metrics); keep it private.")
  public var metrics: String?
  @Option(
    help: ArgumentHelp(
      "A reverse proxy's address or block (10.0.0.0/8): its X-Forwarded-For names the client. Repeatable.",
      valueName: "cidr"))
  public var trustedProxy: [String] = []

  static let registrations = ["open", "closed", "invite"]

  public init() {}

  public func validate() throws {
    guard (1...86_400).contains(idleTimeout), (1...86_400).contains(requestTimeout) else {
      throw ValidationError("--idle-timeout and --request-timeout take 1 to 86400 seconds")
    }
    guard maxConnections > 0, maxConnectionsPerAddress > 0 else {
      throw ValidationError("--max-connections and --max-connections-per-address take a positive number")
    }
    guard (quotaMb ?? 1) > 0, (quotaRecords ?? 1) > 0 else {
      throw ValidationError("--quota-mb and --quota-records take a positive number")
    }
    guard Self.registrations.contains(registration) else {
      throw ValidationError("--registration takes open, closed or invite")
    }
    if let metrics, HostPort(metrics) == nil {
      throw ValidationError("--metrics takes HOST:PORT, e.g. 127.0.0.1:9090")
    }
    guard (1...600).contains(databaseTimeout) else {
      throw ValidationError("--database-timeout takes 1 to 600 seconds")
    }
  }

  /// The options again, for the process `vital serve` executes.
  public var arguments: [String] {
    var arguments = [
      "--idle-timeout", String(idleTimeout), "--request-timeout", String(requestTimeout), "--max-connections",
      String(maxConnections), "--max-connections-per-address", String(maxConnectionsPerAddress), "--database-timeout",
      String(databaseTimeout), "--registration", registration,
    ]
    if let quotaMb { arguments += ["--quota-mb", String(quotaMb)] }
    if let quotaRecords { arguments += ["--quota-records", String(quotaRecords)] }
    if let metrics { arguments += ["--metrics", metrics] }
    for block in trustedProxy { arguments += ["--trusted-proxy", block] }
    return arguments
  }

}
