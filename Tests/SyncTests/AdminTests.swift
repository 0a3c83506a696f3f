import Foundation
import TestServer
import Testing

@testable import SyncHTTP

/// `vital serve admin` against a real server's store, on either backend (VITAL_TEST_BACKEND).
@Suite struct AdminTests {
  let folder: String
  let server: TestServer

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-admin-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
    server = try TestServer(dataDirectory: folder + "/data")
  }

  func admin(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try TestServer.runVital(["serve", "admin"] + arguments + server.storeArguments)
  }

  func accounts() throws -> [[String: Any]] {
    let run = try admin(["accounts", "--json"])
    try #require(run.status == 0, "\(run.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
  }

  func status(of error: any Error) -> Int? {
    if case SyncError.http(let status, _) = error { return status }
    if case SyncError.unauthorized = error { return 401 }
    return nil
  }

  @Test func accountsSuspendResumeAndDeleteShowNoValue() async throws {
    let ann = try Device(email: "ann@example.org", url: server.url)
    try await ann.register()
    _ = try ann.donation(place: "Secret Clinic 42")
    _ = try ann.donation(place: "Another Place")
    try await ann.sync()
    let bob = try Device(email: "bob@example.org", url: server.url)
    try await bob.register()

    var list = try accounts()
    #expect(list.compactMap { $0["email"] as? String } == ["ann@example.org", "bob@example.org"])
    let first = try #require(list.first)
    #expect(first["records"] as? Int == 2)
    #expect((first["stored_bytes"] as? Int ?? 0) > 0)
    #expect(first["devices"] as? Int == 1)
    #expect(first["encrypted"] as? Bool == false)
    #expect(first["suspended"] as? Bool == false)
    #expect(first["last_sync"] is String)
    #expect(list.last?["last_sync"] is NSNull, "bob never synced")
    let text = try admin(["accounts"])
    #expect(text.status == 0)
    for run in [text.stdout, try admin(["accounts", "--json"]).stdout] {
      #expect(!run.contains("Secret Clinic") && !run.contains("Another Place"), "no value, ever")
      #expect(!run.contains("password") && !run.contains("scrypt"))
    }

    // Suspended: 403 on every call (sync and login), the records kept; bob unaffected.
    #expect(try admin(["suspend", "Ann@Example.org"]).status == 0)
    await #expect(throws: (any Error).self) { try await ann.sync() }
    do { try await ann.sync() } catch { #expect(status(of: error) == 403, "\(error)") }
    do {
      try await ann.login()
      Issue.record("a suspended account logged in")
    } catch { #expect(status(of: error) == 403, "\(error)") }
    try await bob.sync()
    list = try accounts()
    #expect(list.first?["suspended"] as? Bool == true)
    #expect(list.first?["records"] as? Int == 2)

    #expect(try admin(["resume", "ann@example.org"]).status == 0)
    try await ann.sync()
    let laptop = try Device(email: "ann@example.org", url: server.url)
    try await laptop.login()
    #expect(try await laptop.sync().pulled == 2, "everything kept while suspended")

    // Delete: the account and all it kept go; bob stays.
    let refused = try admin(["delete", "ann@example.org"])
    #expect(refused.status == 64 && refused.stderr.contains("--yes"))
    #expect(try admin(["delete", "ann@example.org", "--yes"]).status == 0)
    #expect(try accounts().compactMap { $0["email"] as? String } == ["bob@example.org"])
    do {
      try await ann.sync()
      Issue.record("a deleted account synced")
    } catch { #expect(status(of: error) == 401, "\(error)") }

    let unknown = try admin(["suspend", "nobody@example.org"])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.hasPrefix("error: no account") && unknown.stderr.split(separator: "\n").count == 1)
  }
}

/// `vital serve --registration closed|invite` and `vital serve admin invite`, on either backend.
@Suite struct RegistrationTests {
  let folder: String

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-registration-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
  }

  func refusal(_ body: () async throws -> Void) async -> (Int, String)? {
    do {
      try await body()
      return nil
    } catch SyncError.http(let status, let message) {
      return (status, message)
    } catch {
      return (0, "\(error)")
    }
  }

  @Test func aClosedServerTakesNoAccount() async throws {
    let server = try TestServer(dataDirectory: folder + "/closed", arguments: ["--registration", "closed"])
    let ann = try Device(email: "ann@example.org", url: server.url)
    let refused = await refusal {
      try await ann.client.register(email: ann.email, password: "a long server passphrase")
    }
    #expect(refused?.0 == 403)
    #expect(refused?.1.contains("takes no new accounts") == true)
  }

  @Test func anInvitedServerTakesOneAccountPerCode() async throws {
    let server = try TestServer(dataDirectory: folder + "/invite", arguments: ["--registration", "invite"])
    func invite() throws -> String {
      let run = try TestServer.runVital(["serve", "admin", "invite", "--json"] + server.storeArguments)
      try #require(run.status == 0, "\(run.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
      return try #require(object?["invite"] as? String)
    }
    let password = "a long server passphrase"
    let ann = try Device(email: "ann@example.org", url: server.url)
    let none = await refusal { try await ann.client.register(email: ann.email, password: password) }
    #expect(none?.0 == 403 && none?.1.contains("--invite") == true)
    let wrong = await refusal { try await ann.client.register(email: ann.email, password: password, invite: "nope") }
    #expect(wrong?.0 == 403 && wrong?.1.contains("unknown, used") == true)

    let code = try invite()
    #expect(code.count == 24 && code.split(separator: "-").count == 5)
    // As a person types it: upper case, with spaces around.
    try await ann.client.register(email: ann.email, password: password, invite: " \(code.uppercased()) ")
    try await ann.login()
    try await ann.sync()
    let bob = try Device(email: "bob@example.org", url: server.url)
    let reused = await refusal { try await bob.client.register(email: bob.email, password: password, invite: code) }
    #expect(reused?.0 == 403, "a code is good once")
    // A code spent on an email already taken is not used up.
    let second = try invite()
    let taken = await refusal { try await bob.client.register(email: ann.email, password: password, invite: second) }
    #expect(taken?.0 == 409)
    try await bob.client.register(email: bob.email, password: password, invite: second)
  }
}
