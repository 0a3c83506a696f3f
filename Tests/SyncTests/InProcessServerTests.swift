import Auth
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SyncServer

/// The HTTP cases against the application `vital-serve` runs, built in this process by the same
/// `buildApplication` over a real SQLite repository: no process, no socket, and a cheap KDF, so
/// that each case costs milliseconds. What needs a process (start-up, PostgreSQL, several
/// servers, kill and restart) stays in ServerTests and SharedDatabaseTests.
@Suite struct InProcessServerTests {
  let folder: String

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-inprocess-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
  }

  static let password = "correct horse battery staple"
  static let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"

  func withServer(_ test: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.hasher = PasswordHasher(logN: 4, r: 8, p: 1)
    configuration.now = { Date() }
    let repository = try SQLiteSyncRepository(path: folder + "/server.sqlite")
    let app = buildApplication(configuration: configuration, repository: repository)
    try await app.test(.router, test)
  }

  static func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

  static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

  /// Registers and logs in; returns the bearer token.
  static func logIn(_ client: some TestClientProtocol, _ email: String = "ann@example.org") async throws -> String {
    let credentials = "{\"email\":\"\(email)\",\"password\":\"\(password)\"}"
    let created = try await client.execute(uri: "/v1/accounts", method: .post, body: body(credentials))
    #expect(created.status == .created, "\(String(buffer: created.body))")
    let session = try await client.execute(uri: "/v1/sessions", method: .post, body: body(credentials))
    #expect(session.status == .created)
    let object = try JSONSerialization.jsonObject(with: Data(buffer: session.body)) as? [String: String]
    return try #require(object?["token"])
  }

  /// Every route but registration, login and /healthz, as the OpenAPI document lists them.
  static let protectedRoutes: [(HTTPRequest.Method, String)] = [
    (.delete, "/v1/accounts/current"), (.delete, "/v1/sessions/current"), (.post, "/v1/sync"),
    (.get, "/v1/keys/current"), (.put, "/v1/keys/current"),
    (.put, "/v1/blobs/" + String(repeating: "a", count: 64)), (.get, "/v1/blobs/" + String(repeating: "a", count: 64)),
  ]

  @Test func everyRouteBehindTheLoginRefusesAMissingOrUnknownToken() async throws {
    try await withServer { client in
      for (method, path) in Self.protectedRoutes {
        let none = try await client.execute(uri: path, method: method, body: Self.body("{}"))
        #expect(none.status == .unauthorized, "\(method) \(path) without a token")
        #expect(String(buffer: none.body).contains("log in first"), "\(method) \(path)")
        let unknown = try await client.execute(
          uri: path, method: method, headers: Self.bearer(String(repeating: "ab", count: 32)), body: Self.body("{}"))
        #expect(unknown.status == .unauthorized, "\(method) \(path) with an unknown token")
        #expect(String(buffer: unknown.body).contains("log in again"), "\(method) \(path)")
      }
      let health = try await client.execute(uri: "/healthz", method: .get)
      #expect(health.status == .ok)
    }
  }

  @Test func aLoggedInUserSyncsAndLoggingOutEndsTheToken() async throws {
    try await withServer { client in
      let token = try await Self.logIn(client)
      let push =
        "{\"since\":null,\"changes\":[{\"dataset\":\"donation\",\"id\":\"d1\",\"fields\":{\"place\":{\"value\":\"\\\"DRK\\\"\",\"hlc\":\"\(Self.hlc)\"}}}]}"
      let pushed = try await client.execute(
        uri: "/v1/sync", method: .post, headers: Self.bearer(token), body: Self.body(push))
      #expect(pushed.status == .ok, "\(String(buffer: pushed.body))")
      let answer = try JSONSerialization.jsonObject(with: Data(buffer: pushed.body)) as? [String: Any]
      #expect(answer?["accepted"] as? Int == 1)
      #expect(answer?["encrypted"] as? Bool == false)

      // Another user's token sees nothing of it.
      let bob = try await Self.logIn(client, "bob@example.org")
      let pulled = try await client.execute(
        uri: "/v1/sync", method: .post, headers: Self.bearer(bob), body: Self.body("{\"since\":null,\"changes\":[]}"))
      #expect(String(buffer: pulled.body).contains("\"changes\":[]"), "\(String(buffer: pulled.body))")

      let out = try await client.execute(uri: "/v1/sessions/current", method: .delete, headers: Self.bearer(token))
      #expect(out.status == .noContent)
      let after = try await client.execute(
        uri: "/v1/sync", method: .post, headers: Self.bearer(token), body: Self.body("{\"since\":null,\"changes\":[]}"))
      #expect(after.status == .unauthorized)
    }
  }

  @Test func tenWrongPasswordsLockTheAccountWithRetryAfter() async throws {
    try await withServer { client in
      _ = try await Self.logIn(client)
      let wrong = Self.body("{\"email\":\"ann@example.org\",\"password\":\"not the password at all\"}")
      for attempt in 1...10 {
        let answer = try await client.execute(uri: "/v1/sessions", method: .post, body: wrong)
        #expect(answer.status == .unauthorized, "attempt \(attempt)")
      }
      let right = Self.body("{\"email\":\"ann@example.org\",\"password\":\"\(Self.password)\"}")
      let locked = try await client.execute(uri: "/v1/sessions", method: .post, body: right)
      #expect(locked.status == .tooManyRequests)
      let retryAfter = try #require(locked.headers[.retryAfter].flatMap { Int($0) })
      #expect((14 * 60...15 * 60).contains(retryAfter))
      #expect(!String(buffer: locked.body).contains(Self.password))
    }
  }

  /// One address typed two ways is one account on the server too.
  @Test func oneAddressInTwoUnicodeFormsIsOneServerAccount() async throws {
    try await withServer { client in
      func body(_ email: String) throws -> ByteBuffer {
        ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["email": email, "password": Self.password]))
      }
      let first = try await client.execute(uri: "/v1/accounts", method: .post, body: try body("e\u{301}x@example.org"))
      #expect(first.status == .created)
      let second = try await client.execute(uri: "/v1/accounts", method: .post, body: try body("\u{e9}x@example.org"))
      #expect(second.status == .conflict, "\(String(buffer: second.body))")
      let login = try await client.execute(uri: "/v1/sessions", method: .post, body: try body("\u{e9}X@example.org"))
      #expect(login.status == .created)
    }
  }

  /// Every 4xx and 5xx carries `{"error": {"message": ...}}`, those Hummingbird makes without a
  /// message too (an unknown route, a body over the limit).
  @Test func everyErrorAnswerHasTheDocumentedBody() async throws {
    try await withServer { client in
      let token = try await Self.logIn(client)
      let big = ByteBuffer(repeating: UInt8(ascii: " "), count: (10 << 20) + 1)
      let answers = [
        ("unknown route", try await client.execute(uri: "/v1/nothing-here", method: .get)),
        ("wrong method", try await client.execute(uri: "/healthz", method: .delete)),
        (
          "body over the limit",
          try await client.execute(uri: "/v1/sync", method: .post, headers: Self.bearer(token), body: big)
        ),
        (
          "not JSON",
          try await client.execute(uri: "/v1/sync", method: .post, headers: Self.bearer(token), body: Self.body("{"))
        ),
        ("no token", try await client.execute(uri: "/v1/sync", method: .post, body: Self.body("{}"))),
      ]
      // A known path asked with another method is 405 with the methods it answers.
      #expect(answers.map(\.1.status.code) == [404, 405, 413, 400, 401])
      #expect(answers[1].1.headers[.allow] == "GET")
      for (what, answer) in answers {
        let object = try? JSONSerialization.jsonObject(with: Data(buffer: answer.body)) as? [String: Any]
        let message = (object?["error"] as? [String: Any])?["message"] as? String
        #expect(message?.isEmpty == false, "\(what): \(String(buffer: answer.body))")
        #expect(answer.headers[.contentType]?.hasPrefix("application/json") == true, "\(what)")
      }
      #expect(String(buffer: answers[2].1.body).contains("10 MiB"))
    }
  }
}
