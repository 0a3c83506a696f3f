import AsyncHTTPClient
import Foundation
import Sync

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
    let request = HTTPClientRequest(url: url.appendingPathComponent("v1/version").absoluteString)
    let status: Int
    let data: Data
    do {
      let response = try await Self.http.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
      status = Int(response.status.code)
      data = Data(try await response.body.collect(upTo: 1 << 16).readableBytesView)
    } catch {
      throw SyncError.unreachable(url.absoluteString, reason: Self.reason(error))
    }
    if status == 404 { return nil }
    struct Body: Decodable {
      let server: String
      let version: String
      let `protocol`: Int
    }
    guard status == 200, let body = try? JSONDecoder().decode(Body.self, from: data) else {
      throw SyncError.badResponse("GET /v1/version answered \(status) without a version")
    }
    return ServerVersion(server: body.server, version: body.version, syncProtocol: body.protocol)
  }
}
