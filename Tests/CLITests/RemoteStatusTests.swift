import Foundation
import TestServer
import Testing

extension SyncCLITests {
  /// `remote status` asks the server which release and protocol it speaks, warns on a protocol
  /// it does not speak, and still answers when the server cannot be reached.
  @Test func remoteStatusNamesTheServersProtocol() throws {
    let status = try a.run(["remote", "status", "--json"])
    #expect(status.status == 0, "\(status.stderr)")
    let server = try #require(status.object?["server"] as? [String: Any])
    #expect(server["reachable"] as? Bool == true)
    #expect(server["protocol"] as? Int == 1)
    #expect(server["compatible"] as? Bool == true)
    #expect((server["version"] as? String)?.isEmpty == false)
    #expect(status.stderr.isEmpty)
    #expect(try a.run(["remote", "status"]).stdout.contains("sync protocol 1"))

    // A server of another protocol: a static file stands in for its /v1/version.
    let folder = root.root + "/newer"
    try FileManager.default.createDirectory(atPath: folder + "/v1", withIntermediateDirectories: true)
    try #"{"server":"vital-serve 9.0.0","version":"9.0.0","protocol":2}"#.write(
      toFile: folder + "/v1/version", atomically: true, encoding: .utf8)
    let port = try Self.freePort()
    let newer = Process()
    newer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    newer.arguments = ["-m", "http.server", "--bind", "127.0.0.1", "--directory", folder, String(port)]
    newer.standardOutput = FileHandle.nullDevice
    newer.standardError = FileHandle.nullDevice
    try newer.run()
    // SIGKILL: the child may inherit a mask that blocks SIGTERM from the test runner.
    defer { kill(newer.processIdentifier, SIGKILL) }
    #expect(try a.run(["remote", "set", "http://127.0.0.1:\(port)"]).status == 0)
    var answered: Run?
    for _ in 0..<50 {
      let run = try a.run(["remote", "status", "--json"])
      if (run.object?["server"] as? [String: Any])?["reachable"] as? Bool == true {
        answered = run
        break
      }
      usleep(100_000)
    }
    let run = try #require(answered)
    #expect(run.status == 0)
    #expect((run.object?["server"] as? [String: Any])?["compatible"] as? Bool == false)
    #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("warning: the server speaks sync protocol 2"))
    #expect(run.stderr.contains("update Vital"))

    // Nothing listening: the status still comes, saying so.
    kill(newer.processIdentifier, SIGKILL)
    newer.waitUntilExit()
    let down = try a.run(["remote", "status", "--json"])
    #expect(down.status == 0)
    #expect((down.object?["server"] as? [String: Any])?["reachable"] as? Bool == false)
  }

  static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// A server open by invitation, from the operator's `vital serve admin invite` to the new
/// person's `vital remote register --invite`.
@Suite struct InviteCLITests {
  @Test func anInviteFromTheOperatorLetsOnePersonRegister() throws {
    let root = try VitalHome()
    let server = try TestServer(dataDirectory: root.root + "/server", arguments: ["--registration", "invite"])
    let device = try VitalHome()
    #expect(
      try device.run(
        ["account", "register", "--email", "new@example.org", "--password-stdin"],
        stdin: "lilac harbour 1987 teaspoon\n"
      )
      .status == 0)
    #expect(try device.run(["remote", "set", server.url.absoluteString]).status == 0)
    let password = "server side passphrase 42\n"
    expectCleanError(
      try device.run(["remote", "register", "--password-stdin"], stdin: password), mentioning: "--invite")

    let invite = try root.run(["serve", "admin", "invite", "--json"] + server.storeArguments)
    #expect(invite.status == 0, "\(invite.stderr)")
    let code = try #require(invite.object?["invite"] as? String)
    let registered = try device.run(["remote", "register", "--invite", code, "--password-stdin"], stdin: password)
    #expect(registered.status == 0, "\(registered.stderr)")
    #expect(try device.run(["sync"]).status == 0)
    expectCleanError(
      try device.run(["remote", "register", "--invite", code, "--password-stdin"], stdin: password), mentioning: "used")
  }
}
