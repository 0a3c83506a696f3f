import Foundation

/// A real `vital serve` process on 127.0.0.1, for tests. Stopped when released.
public final class TestServer: @unchecked Sendable {
  public let dataDirectory: String
  public private(set) var url: URL
  public private(set) var port: Int
  /// Where the server serves its metrics, when started with `--metrics`.
  public private(set) var metricsURL: URL?
  private var process: Process?
  private let log: String
  /// The PostgreSQL database this server uses, when the tests run against PostgreSQL.
  public let database: String?
  /// More options for `vital serve`.
  let extraArguments: [String]
  let postgresSource: PostgresSource
  /// The server's open-file limit (`ulimit -n`), when a test sets one.
  let fileLimit: Int?

  /// `VITAL_TEST_BACKEND=postgres` (set by scripts/test, with `VITAL_TEST_POSTGRES` naming the
  /// throwaway cluster) runs every test server on PostgreSQL, each on a fresh database.
  public static var postgresURL: String? {
    let environment = ProcessInfo.processInfo.environment
    guard environment["VITAL_TEST_BACKEND"] == "postgres" else { return nil }
    return environment["VITAL_TEST_POSTGRES"]
  }

  /// Creates an empty database on the test cluster and returns its name.
  public static func createDatabase() throws -> String {
    let environment = ProcessInfo.processInfo.environment
    guard let base = environment["VITAL_TEST_POSTGRES"], let pgbin = environment["VITAL_TEST_PGBIN"],
      let url = URLComponents(string: base)
    else { throw NSError(domain: "TestServer", code: 2, userInfo: [NSLocalizedDescriptionKey: "no test cluster"]) }
    let name = "vital_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: pgbin + "/createdb")
    process.arguments = [
      "-h", url.host ?? "127.0.0.1", "-p", String(url.port ?? 5432), "-U", url.user ?? "vital", name,
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw NSError(domain: "TestServer", code: 3, userInfo: [NSLocalizedDescriptionKey: "createdb failed"])
    }
    return name
  }

  public static let binary: URL = {
    if let path = ProcessInfo.processInfo.environment["VITAL_BIN"] { return URL(fileURLWithPath: path) }
    return Bundle.main.bundleURL.appendingPathComponent("vital")
  }()

  /// Starts a server on a free port (or on `port`) over `dataDirectory`, or on PostgreSQL when
  /// the tests run against it (on `database`, shared with another server, else a fresh one).
  /// How a server on PostgreSQL is given its URL.
  public enum PostgresSource: Sendable {
    case argument
    case file
    case environment
  }

  public init(
    dataDirectory: String, port: Int = 0, database: String? = nil, arguments: [String] = [], fileLimit: Int? = nil,
    postgresSource: PostgresSource = .argument
  ) throws {
    self.postgresSource = postgresSource
    self.extraArguments = arguments
    self.fileLimit = fileLimit
    self.dataDirectory = dataDirectory
    self.database = Self.postgresURL == nil ? nil : try database ?? Self.createDatabase()
    self.log = dataDirectory + ".log"
    self.url = URL(string: "http://127.0.0.1:0")!
    self.port = port
    try start(port: port)
  }

  /// Where this server keeps its data, as `vital serve admin` takes it.
  public var storeArguments: [String] {
    guard let base = Self.postgresURL, let database else { return ["--data", dataDirectory] }
    return ["--postgres", (base.hasSuffix("/") ? base : base + "/") + database]
  }

  /// The environment of a `vital` or `vital-serve` the tests start: this one's without its
  /// VITAL_ settings, and scrypt at N = 2^14 (the least a server takes for a sync key) instead
  /// of the policy's 2^17 (debug builds only, `ScryptPolicy`): hundreds of accounts, logins and
  /// keys, each 0.6 s of CPU otherwise.
  public static var processEnvironment: [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("VITAL_") }
    environment["VITAL_TEST_SCRYPT_LOG_N"] = "14"
    return environment
  }

  /// Runs `vital ARGUMENTS` (as a server operator would, next to this server) and returns its
  /// exit status, stdout and stderr.
  public static func runVital(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.environment = Self.processEnvironment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
  }

  public func start(port: Int? = nil) throws {
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = ["serve", "--listen", "127.0.0.1:\(port ?? self.port)"]
    var environment = Self.processEnvironment
    environment["TZ"] = "UTC"
    if let base = Self.postgresURL, let database {
      let url = (base.hasSuffix("/") ? base : base + "/") + database
      switch postgresSource {
      case .argument: process.arguments! += ["--postgres", url]
      case .file:
        let file = dataDirectory + ".postgres-url"
        try Data((url + "\n").utf8).write(to: URL(fileURLWithPath: file))
        process.arguments! += ["--postgres-file", file]
      case .environment: environment["VITAL_POSTGRES_URL"] = url
      }
    } else {
      process.arguments! += ["--data", dataDirectory]
    }
    process.arguments! += extraArguments
    if let fileLimit {
      // The shell lowers the limit, then becomes the server: the same process, so `stop` and
      // `peakResidentBytes` still reach it.
      process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", Self.binary.path] + process.arguments!
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
    }
    process.environment = environment
    try Data().write(to: URL(fileURLWithPath: log))
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    process.standardError = process.standardOutput
    try process.run()
    self.process = process
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
      let metrics = lines.first(where: { $0.hasPrefix("metrics on ") })
      if let line = lines.first(where: { $0.hasPrefix("listening on ") }),
        metrics != nil || !process.arguments!.contains("--metrics")
      {
        url = URL(string: String(line.dropFirst("listening on ".count)))!
        self.port = url.port ?? 0
        metricsURL = metrics.flatMap { URL(string: String($0.dropFirst("metrics on ".count))) }
        return
      }
      if !process.isRunning { break }
      usleep(20_000)
    }
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    throw NSError(domain: "TestServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "server did not start: \(text)"])
  }

  /// The most memory the server process has held so far (VmHWM), in bytes.
  public var peakResidentBytes: Int? {
    guard let process,
      let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kib * 1024
  }

  public var pid: Int32? { process?.processIdentifier }

  /// Ends the server with `signal` (SIGKILL for a crash) and waits for it.
  public func stop(signal: Int32 = SIGTERM) {
    guard let process, process.isRunning else { return }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    self.process = nil
  }

  deinit { stop(signal: SIGKILL) }
}
