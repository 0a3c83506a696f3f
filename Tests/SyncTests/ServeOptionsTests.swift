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
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let started = Date()
    try process.run()
    process.waitUntilExit()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 1)
    #expect(Date().timeIntervalSince(started) < 15, "it gives up after --database-timeout")
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
