import Foundation
import TestServer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Per-address limits on failed logins and refused registrations, a real server on either
/// backend: an attacker's address is held back, the owner's is not, and every refusal is one
/// log line that the fail2ban filter in dist/ matches (checked by Debian's fail2ban-regex).
@Suite struct AddressLimitTests {
  let folder: String
  static let password = "a long server passphrase"

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-limits-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
  }

  /// POSTs JSON as if through a proxy that says the client is `forwardedFor`.
  func post(_ server: TestServer, _ path: String, _ body: [String: String], forwardedFor: String?) async throws
    -> (status: Int, retryAfter: Int?)
  {
    var request = URLRequest(url: server.url.appendingPathComponent(String(path.dropFirst())))
    request.httpMethod = "POST"
    request.httpBody = try JSONSerialization.data(withJSONObject: body)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    if let forwardedFor { request.setValue(forwardedFor, forHTTPHeaderField: "X-Forwarded-For") }
    let (_, response) = try await URLSession.shared.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) })
  }

  func login(_ server: TestServer, _ email: String, _ password: String, from address: String?) async throws
    -> (status: Int, retryAfter: Int?)
  {
    try await post(server, "/v1/sessions", ["email": email, "password": password], forwardedFor: address)
  }

  /// The addresses `fail2ban-regex` finds in the server's log with our filter, one per match.
  func fail2banAddresses(_ server: TestServer) throws -> [String] {
    let filter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("dist/fail2ban/filter.d/vital-serve.conf").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/fail2ban-regex")
    process.arguments = ["-o", "ip", server.dataDirectory + ".log", filter]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "fail2ban-regex failed (installed by scripts/bootstrap)")
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test func anAttackerIsHeldBackWhileTheOwnerStillLogsIn() async throws {
    let server = try TestServer(dataDirectory: folder + "/data", arguments: ["--trusted-proxy", "127.0.0.1"])
    let owner = "198.51.100.2"
    // What the client put on the left is its own claim; the proxy's entry, on the right, counts.
    let attacker = "198.18.0.1, 203.0.113.7"
    #expect(
      try await post(
        server, "/v1/accounts", ["email": "ann@example.org", "password": Self.password], forwardedFor: owner
      )
      .status == 201)

    var statuses: [Int] = []
    for _ in 0..<20 {
      statuses.append(try await login(server, "ann@example.org", "guess guess guess", from: attacker).status)
    }
    // Ten failures lock the account against the addresses that failed; the rest say so.
    #expect(statuses == Array(repeating: 401, count: 10) + Array(repeating: 429, count: 10))
    let held = try await login(server, "ann@example.org", Self.password, from: attacker)
    #expect(held.status == 429, "20 failures: the address waits even with the right password")
    #expect((held.retryAfter ?? 0) > 0 && (held.retryAfter ?? 0) <= 15 * 60)
    #expect(
      try await post(
        server, "/v1/accounts", ["email": "new@example.org", "password": Self.password], forwardedFor: attacker
      )
      .status == 429, "registrations from the address wait too")

    // The owner, from an address that has not failed, gets in: the account's lock is not theirs.
    #expect(try await login(server, "ann@example.org", Self.password, from: owner).status == 201)
    // A header from a peer that is not a trusted proxy is ignored: that is the peer itself.
    #expect(try await login(server, "ann@example.org", Self.password, from: nil).status == 201)

    // Each refusal is one line naming the attacker's address, never the email; fail2ban reads them all.
    let log = try String(contentsOfFile: server.dataDirectory + ".log", encoding: .utf8)
    let refusals = log.split(separator: "\n").filter { $0.contains(" vital-serve refused ") }
    #expect(refusals.count == 22)
    #expect(!log.contains("ann@example.org") && !log.contains("new@example.org") && !log.contains("guess"))
    #expect(!log.contains("198.18.0.1"), "the client's own claim is not trusted")
    let matched = try fail2banAddresses(server)
    #expect(matched == Array(repeating: "203.0.113.7", count: 22))
  }

  @Test func withoutATrustedProxyTheHeaderIsIgnored() async throws {
    let server = try TestServer(dataDirectory: folder + "/data")
    // Twenty failures for unknown emails, each claiming another address: all are 127.0.0.1.
    for n in 0..<20 {
      let answer = try await login(server, "nobody\(n)@example.org", "guess guess guess", from: "203.0.113.\(n)")
      #expect(answer.status == 401)
    }
    let held = try await login(server, "nobody@example.org", "guess guess guess", from: "192.0.2.99")
    #expect(held.status == 429)
    #expect(held.retryAfter != nil)
    let matched = try fail2banAddresses(server)
    #expect(matched == Array(repeating: "127.0.0.1", count: 21))
  }
}
