import Auth
import Foundation
import Hummingbird
import HummingbirdTesting
import Sync
import Testing

@testable import SyncHTTP
@testable import SyncServer

/// Every error answer carries a code from `ErrorCode` (clients switch on it, never on the
/// message), the one its case documents, with the status docs/sync-protocol.md gives it.
@Suite struct ErrorCodeTests {
  let folder: String

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-codes-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
  }

  static let sha = String(repeating: "a", count: 64)
  static let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"

  static func push(_ field: String, _ value: String, hlc: String = hlc) -> String {
    "{\"since\":null,\"changes\":[{\"dataset\":\"donation\",\"id\":\"d1\",\"fields\":{\"\(field)\":{\"value\":\(value),\"hlc\":\"\(hlc)\"}}}]}"
  }

  @Test func everyErrorAnswerCarriesItsCode() async throws {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.hasher = PasswordHasher(logN: 4, r: 8, p: 1)
    configuration.now = { Date() }
    configuration.bodyLimit = 64 << 10
    configuration.valueLimit = 1 << 10
    configuration.rules = ["donation": ["hb_g_dl": .number(0...30)]]
    let repository = try SQLiteSyncRepository(path: folder + "/server.sqlite")
    let app = buildApplication(configuration: configuration, repository: repository)
    try await app.test(.router) { client in
      let credentials = #"{"email":"ann@example.org","password":"correct horse battery staple"}"#
      _ = try await client.execute(uri: "/v1/accounts", method: .post, body: ByteBuffer(string: credentials))
      let session = try await client.execute(uri: "/v1/sessions", method: .post, body: ByteBuffer(string: credentials))
      let token = try #require(
        (try JSONSerialization.jsonObject(with: Data(buffer: session.body)) as? [String: String])?["token"])
      let auth: HTTPFields = [.authorization: "Bearer \(token)"]
      let format = DateFormatter()
      format.locale = Locale(identifier: "en_US_POSIX")
      format.timeZone = TimeZone(identifier: "UTC")
      format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
      let aheadHLC = format.string(from: Date().addingTimeInterval(3 * 3600)) + "-0000-0123456789abcdef"

      let cases: [(String, HTTPRequest.Method, String, HTTPFields, String, Int, ErrorCode)] = [
        ("unknown path", .get, "/v1/nothing", [:], "", 404, .notFound),
        ("other method", .patch, "/v1/sync", auth, "{}", 405, .methodNotAllowed),
        ("no token", .post, "/v1/sync", [:], "{}", 401, .unauthorized),
        ("unknown token", .get, "/v1/keys/current", [.authorization: "Bearer " + Self.sha], "", 401, .unauthorized),
        ("bad JSON", .post, "/v1/accounts", [:], "{", 400, .badRequest),
        (
          "bad email", .post, "/v1/accounts", [:], #"{"email":"no at","password":"correct horse battery"}"#, 400,
          .invalidEmail
        ),
        (
          "weak password", .post, "/v1/accounts", [:], #"{"email":"b@example.org","password":"password"}"#, 400,
          .weakPassword
        ),
        ("taken email", .post, "/v1/accounts", [:], credentials, 409, .accountExists),
        (
          "wrong password", .post, "/v1/sessions", [:],
          #"{"email":"ann@example.org","password":"not the right one at all"}"#, 401, .wrongCredentials
        ),
        ("no key", .get, "/v1/keys/current", auth, "", 404, .noKey),
        ("bad blob name", .get, "/v1/blobs/xyz", auth, "", 400, .badRequest),
        ("unknown blob", .get, "/v1/blobs/" + Self.sha, auth, "", 404, .notFound),
        ("bytes not their hash", .put, "/v1/blobs/" + Self.sha, auth, "bytes", 400, .hashMismatch),
        ("bad session id", .delete, "/v1/sessions/zz", auth, "", 400, .badRequest),
        (
          "unknown cursor", .post, "/v1/sync", auth, #"{"since":"ffffffffffffffff:3","changes":[]}"#, 409,
          .resyncRequired
        ),
        ("value its rules refuse", .post, "/v1/sync", auth, Self.push("hb_g_dl", "\"abc\""), 400, .invalidValue),
        (
          "value too large", .post, "/v1/sync", auth, Self.push("notes", "\"\(String(repeating: "x", count: 2000))\""),
          413, .valueTooLarge
        ),
        ("clock ahead", .post, "/v1/sync", auth, Self.push("notes", "\"x\"", hlc: aheadHLC), 400, .clockAhead),
        ("body too large", .post, "/v1/sync", auth, String(repeating: " ", count: 70 << 10), 413, .tooLarge),
      ]
      for (what, method, path, headers, body, status, code) in cases {
        let answer = try await client.execute(
          uri: path, method: method, headers: headers, body: ByteBuffer(string: body))
        let text = String(buffer: answer.body)
        #expect(Int(answer.status.code) == status, "\(what): \(answer.status.code) \(text)")
        #expect(answer.headers[.contentType] == "application/json", "\(what)")
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        #expect((error?["message"] as? String)?.isEmpty == false, "\(what): \(text)")
        let sent = try #require(error?["code"] as? String, "\(what): no code in \(text)")
        #expect(ErrorCode(rawValue: sent) == code, "\(what): \(sent)")
        switch code {
        case .invalidValue: #expect(error?["field"] as? String == "hb_g_dl" && error?["id"] as? String == "d1")
        case .valueTooLarge: #expect(error?["dataset"] as? String == "donation" && error?["id"] as? String == "d1")
        case .clockAhead: #expect(object?["server_time"] is String)
        case .methodNotAllowed: #expect(answer.headers[.allow] == "POST")
        default: break
        }
      }
    }
  }

  /// A code the client does not know reads as its status; the ones it acts on are read by code,
  /// whatever the message says.
  @Test func theClientReadsTheCodeNotTheMessage() throws {
    func body(_ code: String, _ message: String) -> Data {
      Data("{\"error\":{\"code\":\"\(code)\",\"message\":\"\(message)\"}}".utf8)
    }
    #expect(Refusal(body("key_rotated", "anything at all")).error(status: 409) == .keyRotated)
    #expect(Refusal(body("resync_required", "anything")).error(status: 409) == .resyncRequired)
    #expect(Refusal(body("encrypted", "anything")).error(status: 409) == .encrypted)
    #expect(
      Refusal(body("from_the_future", "key rotated: sealed under a new key")).error(status: 409)
        == .http(status: 409, message: "key rotated: sealed under a new key"))
    #expect(Refusal(Data("not json".utf8)).error(status: 502) == .http(status: 502, message: "no message"))
  }
}
