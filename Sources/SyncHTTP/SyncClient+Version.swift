import Foundation
import Sync

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension SyncClient {
  public struct ServerVersion: Equatable, Sendable {
    public let server: String
    public let version: String
    public let syncProtocol: Int

    /// Whether this client and the server speak the same sync protocol.
    public var compatible: Bool { syncProtocol == Release.syncProtocol }
  }

  /// What `GET /v1/version` says, asked once with a short timeout (a status line must not hang
  /// on an unreachable server); nil from a server older than the endpoint (404).
  public func serverVersion(timeout: TimeInterval = 5) async throws -> ServerVersion? {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(from: url.appendingPathComponent("v1/version"))
    } catch {
      throw SyncError.unreachable(url.absoluteString, reason: (error as NSError).localizedDescription)
    }
    guard let http = response as? HTTPURLResponse else { throw SyncError.badResponse("not HTTP") }
    if http.statusCode == 404 { return nil }
    struct Body: Decodable {
      let server: String
      let version: String
      let `protocol`: Int
    }
    guard http.statusCode == 200, let body = try? JSONDecoder().decode(Body.self, from: data) else {
      throw SyncError.badResponse("GET /v1/version answered \(http.statusCode) without a version")
    }
    return ServerVersion(server: body.server, version: body.version, syncProtocol: body.protocol)
  }
}
