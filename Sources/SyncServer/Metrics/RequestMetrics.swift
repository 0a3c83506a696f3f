import Foundation
import Hummingbird
import PostgresNIO
import Storage

/// Counts every answer by route template and status, with its latency, and the requests that
/// failed on the database. Outermost, so that it sees the status `ErrorBodies` settles on.
struct RequestMetrics: RouterMiddleware {
  typealias Context = SyncRequestContext
  let metrics: ServerMetrics

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    // The router names the route once it has matched it (a shared box): read it afterwards.
    // The template (`/v1/blobs/{sha256}`), never the path itself: a path may carry a hash.
    func count(_ status: Int) {
      let route = context.endpointPath.map { $0 == "NotFound" ? "unmatched" : $0 } ?? "unmatched"
      metrics.request(
        route: route, method: request.method.rawValue, status: status, duration: ContinuousClock.now - start)
    }
    do {
      let response = try await next(request, context)
      count(response.status.code)
      return response
    } catch {
      count((error as? any HTTPResponseError)?.status.code ?? 500)
      throw error
    }
  }

  /// Whether an error came from SQLite or PostgreSQL (rather than from the request).
  static func isDatabaseError(_ error: any Error) -> Bool {
    error is StorageError || error is PSQLError || error is PostgresError
  }
}
