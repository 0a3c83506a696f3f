import Foundation
import Hummingbird
import Records
import Storage
import Synchronization

/// The one door every request passes (docs/web.md, "Who gets in"): the Host must be the
/// address `vital web` listens on (a page of another site that rebinds its name to 127.0.0.1
/// is refused), the printed link's token is traded for a cookie, a request without that cookie
/// gets 401, and a POST without the browser session's form token gets 403 before any handler
/// runs. Every answer, errors included, carries the headers that keep it out of other hands.
struct WebGuard: RouterMiddleware {
  typealias Context = WebContext
  let sessions: WebSessions
  let address: WebAddress
  /// What a form may send at the most: a note, a few fields.
  static let formLimit = 64 * 1024

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    var response: Response
    do {
      response = try await admit(request, context: context, next: next)
    } catch let error as WebError {
      response = Page.error(error)
    } catch let error as HTTPError {
      response = Page.error(
        error.status == .notFound ? .notFound : WebError(error.status, "That is not a request these pages make."))
    } catch let error as StorageError {
      response = Page.error(Self.refusal(error))
    } catch {
      // An error's own words may hold a value or a path: the page says only what to do.
      response = Page.error(Self.refusal(error))
    }
    Self.secure(&response.headers, page: !(request.uri.path.hasPrefix("/static/") && response.status == .ok))
    // HEAD is GET without the body (`Router.page` answers both).
    if request.method == .head { response.body = ResponseBody() }
    return response
  }

  private func admit(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
    async throws -> Response
  {
    guard let authority = request.head.authority, address.accepts(authority) else {
      throw WebError(
        .misdirectedRequest, "This server answers only at the address it printed. Open the link vital web printed.")
    }
    if request.uri.path.hasPrefix("/static/") { return try await next(request, context) }
    if let offered = request.uri.queryParameters["token"] {
      guard let cookie = try sessions.exchange(offered) else {
        throw WebError(
          .unauthorized, "That link is from an earlier start of vital web. Open the link it printed this time.")
      }
      // The same path without the token, so it leaves the address bar and the history; a path
      // that a browser would read as another host (`//evil.example`) goes to Today instead.
      var response = Response(status: .seeOther, headers: [.location: Self.samePath(request.uri.path)])
      response.setCookie(
        Cookie(name: sessions.cookieName, value: cookie, path: "/", secure: false, httpOnly: true, sameSite: .strict)
      )
      return response
    }
    guard let cookie = request.cookies[sessions.cookieName]?.value, let form = sessions.formToken(cookie: cookie)
    else {
      throw WebError(
        .unauthorized, "Open the link vital web printed when it started (it holds a token): only that browser gets in.")
    }
    var context = context
    context.formToken = form
    guard request.method == .post else { return try await next(request, context) }
    var request = request
    let body = try await request.collectBody(upTo: Self.formLimit)
    let fields = Form(String(decoding: body.readableBytesView, as: UTF8.self))
    guard let sent = fields["csrf"], WebSessions.same(sent, form) else {
      throw WebError(
        .forbidden, "This form is out of date or came from another page: nothing was changed. Reload and try again.")
    }
    context.form = fields
    return try await next(request, context)
  }

  /// A path of this server to send a browser to: `//host` and `/\\host` name another host.
  static func samePath(_ path: String) -> String {
    guard path.hasPrefix("/"), !path.hasPrefix("//"), !path.hasPrefix("/\\") else { return "/" }
    return path
  }

  /// What a failure says on the page: what to do, never the error's own text.
  static func refusal(_ error: any Error) -> WebError {
    if case .sqlite(let code, _, _) = error as? StorageError, code & 0xff == 5 || code & 0xff == 6 {
      return WebError(
        .serviceUnavailable, "Another vital command is writing to the record just now: reload in a moment.")
    }
    if Self.isMissingRecord(error) {
      return WebError(.notFound, "That record is not here: it may have been deleted. Go back to the list and reload.")
    }
    if String(describing: type(of: error)).contains("TooManyBytes") {
      return WebError(.contentTooLarge, "That form is larger than any page here sends: nothing was changed.")
    }
    return WebError(
      .internalServerError,
      "Something went wrong here and nothing was changed. Reload; if it happens again, 'vital' in a terminal says more."
    )
  }

  /// A record the path names that is not there (deleted, never was, or a prefix of several).
  static func isMissingRecord(_ error: any Error) -> Bool {
    switch error {
    case is RecordLookup.Failure: return true
    case MedicationError.notFound: return true
    case AreaError.watchNotFound: return true
    case GoalStore.Failure.notFound: return true
    case DonationError.notFound: return true
    default: return false
    }
  }

  /// The headers of every answer. Pages hold health data: no cache keeps them, no other page
  /// learns the address they came from, and they run no script but their own.
  static func secure(_ headers: inout HTTPFields, page: Bool) {
    headers[.contentSecurityPolicy] =
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    headers[.xContentTypeOptions] = "nosniff"
    headers[.init("Referrer-Policy")!] = "no-referrer"
    headers[.cacheControl] = page ? "no-store" : "max-age=3600"
  }
}

/// Where `vital web` listens, once it does (port 0 is chosen by the system): the Host a
/// request must name.
public final class WebAddress: Sendable {
  private let hosts = Mutex<Set<String>>([])

  public init() {}

  private let anyHost = Mutex<Int?>(nil)

  /// Accepts `host:port` from now on (an IPv6 host in brackets, as browsers send it), and for a
  /// loopback address the names that mean it.
  public func listening(host: String, port: Int) {
    var names: Set<String> = [host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"]
    if host == "127.0.0.1" || host == "::1" { names.insert("localhost:\(port)") }
    hosts.withLock { $0.formUnion(names.map { $0.lowercased() }) }
  }

  /// With `--allow-remote`, other machines name this one as they know it (an address, a
  /// hostname): any Host with the port is let in, and the token and cookie keep the rest out.
  public func listeningToAnyHost(port: Int) { anyHost.withLock { $0 = port } }

  func accepts(_ authority: String) -> Bool {
    let authority = authority.lowercased()
    if let port = anyHost.withLock({ $0 }), authority.hasSuffix(":\(port)") { return true }
    return hosts.withLock { $0.contains(authority) }
  }
}
