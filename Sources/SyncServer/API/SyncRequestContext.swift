import Foundation
import Hummingbird

/// A request's context: Hummingbird's own, plus the user whose bearer token `Authenticate`
/// checked on the routes that need a login.
public struct SyncRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  var login: Login?
  /// The address of the connection's other end (a reverse proxy's, behind one).
  let peer: String?

  public init(source: Source) {
    coreContext = .init(source: source)
    peer = source.channel.remoteAddress?.ipAddress
  }

  /// Who sent the request, and the digest of the token they sent it with.
  struct Login: Sendable {
    let userID: String
    let tokenSHA256: String
  }

  /// The login `Authenticate` set; a route that reads it without the middleware is a bug here,
  /// not the client's mistake.
  func requireLogin() throws -> Login {
    guard let login else { throw APIError(.internalServerError, .internal, "this route lacks authentication") }
    return login
  }
}
