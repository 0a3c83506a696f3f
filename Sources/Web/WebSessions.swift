import Cryptography
import Foundation
import Synchronization

/// Who may use the pages. The link `vital web` prints carries a token; a browser that opens it
/// trades it for a cookie of its own (a browser session) and a form token for its POSTs, so the
/// token leaves the address bar and the history. A browser without that cookie gets nothing.
public final class WebSessions: Sendable {
  /// The token in the printed link: fresh at each start, as Jupyter does.
  public let token: String
  /// Browser session (the cookie's value) → its form token.
  private let sessions = Mutex<[String: String]>([:])

  /// Named for this run: cookies do not tell ports apart, so two `vital web` on one machine
  /// would otherwise log each other's browser out.
  public let cookieName: String

  public init(token: String? = nil) throws {
    self.token = try token ?? Self.random()
    cookieName = "vital_session_" + String(try Self.random().prefix(8))
  }

  /// A browser session for `token` if it is the printed one: the cookie's value.
  func exchange(_ offered: Substring) throws -> String? {
    guard Crypto.constantTimeEqual(Array(offered.utf8), Array(token.utf8)) else { return nil }
    let cookie = try Self.random()
    let form = try Self.random()
    sessions.withLock { $0[cookie] = form }
    return cookie
  }

  /// The form token of the browser session `cookie` names, if it is one of ours.
  func formToken(cookie: String) -> String? { sessions.withLock { $0[cookie] } }

  /// 32 random bytes as 64 hex digits: valid in a URL, a cookie and a form as they are.
  static func random() throws -> String { Crypto.hex(try Crypto.randomBytes(32)) }

  /// Equal, in time that does not depend on where they differ.
  static func same(_ a: String, _ b: String) -> Bool { Crypto.constantTimeEqual(Array(a.utf8), Array(b.utf8)) }
}
