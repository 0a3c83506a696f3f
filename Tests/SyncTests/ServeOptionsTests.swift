import Foundation
import TestServer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The PostgreSQL URL can stay out of `ps`, and a database that cannot be reached is named (not
/// its password) and ends the server instead of leaving it neither listening nor gone.
@Suite struct ServeOptionsTests {
  let folder: String

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-serve-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
  }

  @Test func anUnreachableDatabaseIsNamedAndTheServerExits() throws {
    let process = Process()
    process.executableURL = TestServer.binary
    process.arguments = [
      "serve", "--listen", "127.0.0.1:0", "--postgres", "postgres://vital:hunter2@127.0.0.1:1/vital",
      "--database-timeout", "2",
    ]
    // A file, not a pipe: a server another test starts at the same moment can inherit a pipe's
    // write end, and reading to its end then waits for that server (CI once measured 124 s here).
    let errorPath = folder + "/stderr"
    _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let started = Date()
    try process.run()
    process.waitUntilExit()
    let waited = Date().timeIntervalSince(started)
    try errors.close()
    let stderr = try String(contentsOfFile: errorPath, encoding: .utf8)
    #expect(process.terminationStatus == 1)
    #expect(waited < 15, "it gives up after --database-timeout, not the default 30 s")
    #expect(stderr.hasPrefix("error: "), "\(stderr)")
    #expect(stderr.contains("cannot reach the PostgreSQL database 127.0.0.1:1/vital"), "\(stderr)")
    #expect(!stderr.contains("hunter2"), "never the password")
    #expect(stderr.split(separator: "\n").count == 1, "one line, not a log of retries: \(stderr)")
  }

  @Test(.enabled(if: TestServer.postgresURL != nil, "needs the PostgreSQL test cluster"))
  func theURLFromAFileOrTheEnvironmentStaysOutOfTheArguments() async throws {
    for source in [TestServer.PostgresSource.file, .environment] {
      let server = try TestServer(dataDirectory: folder + "/\(source)", postgresSource: source)
      let pid = try #require(server.pid)
      let arguments = try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
      #expect(!arguments.contains("postgres://"), "\(source): \(arguments)")
      let device = try Device(email: "url-\(source)@example.org", url: server.url)
      try await device.register()
      _ = try device.donation(place: "DRK")
      #expect(try await device.sync().pushed == 1, "\(source)")
    }
  }
}
