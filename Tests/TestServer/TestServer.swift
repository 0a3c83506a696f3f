import Foundation

/// A real `vital serve` process on 127.0.0.1, for tests. Stopped when released.
public final class TestServer: @unchecked Sendable {
  public let dataDirectory: String
  public private(set) var url: URL
  public private(set) var port: Int
  private var process: Process?
  private let log: String

  public static let binary: URL = {
    if let path = ProcessInfo.processInfo.environment["VITAL_BIN"] { return URL(fileURLWithPath: path) }
    return Bundle.main.bundleURL.appendingPathComponent("vital")
  }()

  /// Starts a server on a free port (or on `port`) over `dataDirectory`.
  public init(dataDirectory: String, port: Int = 0) throws {
    self.dataDirectory = dataDirectory
    self.log = dataDirectory + ".log"
    self.url = URL(string: "http://127.0.0.1:0")!
    self.port = port
    try start(port: port)
  }

  public func start(port: Int? = nil) throws {
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = ["serve", "--listen", "127.0.0.1:\(port ?? self.port)", "--data", dataDirectory]
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("VITAL_") }
    environment["TZ"] = "UTC"
    process.environment = environment
    FileManager.default.createFile(atPath: log, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    process.standardError = process.standardOutput
    try process.run()
    self.process = process
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if let text = try? String(contentsOfFile: log, encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") })
      {
        url = URL(string: String(line.dropFirst("listening on ".count)))!
        self.port = url.port ?? 0
        return
      }
      if !process.isRunning { break }
      usleep(20_000)
    }
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    throw NSError(domain: "TestServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "server did not start: \(text)"])
  }

  /// Ends the server with `signal` (SIGKILL for a crash) and waits for it.
  public func stop(signal: Int32 = SIGTERM) {
    guard let process, process.isRunning else { return }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    self.process = nil
  }

  deinit { stop(signal: SIGKILL) }
}
