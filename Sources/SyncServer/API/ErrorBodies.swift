import Foundation
import Hummingbird
import Logging
import Replication
import Sync

/// Every error answer carries the documented body, `{"error": {"code": ..., "message": ...}}`
/// (`APIError`): errors thrown without one (an unknown route, a body over the limit) get a code
/// by their status and a message that says what to do,
/// and an unexpected failure becomes a 500 whose details stay in the server's log, by type
/// only, since an error's text may hold what a request carried.
struct ErrorBodies: RouterMiddleware {
  typealias Context = SyncRequestContext
  let bodyLimit: Int
  let logger: Logger
  let metrics: ServerMetrics

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as APIError {
      throw error
    } catch let error as HTTPError where error.status == .notFound {
      let allowed = AllowedMethods.methods(for: request.uri.path)
      guard !allowed.isEmpty, !allowed.contains(request.method) else {
        throw APIError(.notFound, .notFound, message(for: .notFound))
      }
      let list = allowed.map { $0.rawValue }.joined(separator: ", ")
      throw APIError(
        .methodNotAllowed, .methodNotAllowed, "\(request.uri.path) answers \(list), not \(request.method)",
        headers: [.allow: list])
    } catch let error as HTTPError {
      throw APIError(
        error.status, ErrorCode(status: error.status.code), error.body ?? message(for: error.status),
        headers: error.headers)
    } catch let error as any HTTPResponseError {
      throw APIError(error.status, ErrorCode(status: error.status.code), message(for: error.status))
    } catch {
      if RequestMetrics.isDatabaseError(error) { metrics.databaseErrors.increment() }
      logger.error("request failed", metadata: ["error": .string(String(reflecting: type(of: error)))])
      throw APIError(
        .internalServerError, .internal, "the server could not complete the request; its log says why")
    }
  }

  func message(for status: HTTPResponse.Status) -> String {
    switch status {
    case .notFound: return "no such endpoint; the API is described in docs/openapi.yaml"
    case .contentTooLarge:
      return "the request body is larger than this server takes (\(Replica.describe(bytes: bodyLimit)))"
    case .unauthorized: return "log in first: send Authorization: Bearer <token>"
    default: return status.reasonPhrase.isEmpty ? "request failed (\(status.code))" : status.reasonPhrase.lowercased()
    }
  }
}
