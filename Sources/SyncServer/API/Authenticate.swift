import Cryptography
import Foundation
import Hummingbird

/// Checks `Authorization: Bearer TOKEN` against the stored token digests and puts the user in
/// the request context; every route behind it answers 401 without a valid token.
struct Authenticate: RouterMiddleware {
  typealias Context = SyncRequestContext
  /// What a suspended account hears on every call: its data stays on the server.
  static let suspended = "this account is suspended on this server (its records are kept); ask the server's operator"
  static let unknownToken = APIError(.unauthorized, .unauthorized, "the token is unknown or expired; log in again")
  let repository: any SyncRepository
  let now: @Sendable () -> Date

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let digest = try Self.tokenDigest(request)
    guard let user = try await repository.user(tokenSHA256: digest, now: now()) else { throw Self.unknownToken }
    if user.suspended { throw APIError(.forbidden, .suspended, Self.suspended) }
    var context = context
    context.login = .init(userID: user.id, tokenSHA256: digest)
    return try await next(request, context)
  }

  /// The SHA-256 of the request's bearer token, which is what the server keeps of it.
  static func tokenDigest(_ request: Request) throws -> String {
    guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
      throw APIError(.unauthorized, .unauthorized, "log in first: send Authorization: Bearer <token>")
    }
    return Crypto.sha256Hex(Data(header.dropFirst(7).utf8))
  }
}
