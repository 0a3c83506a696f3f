import Foundation
import Storage
import Sync

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension SyncClient {
  // MARK: HTTP

  func send(_ method: String, _ path: String, json: [String: String], token: String?) async throws -> Data {
    try await send(method, path, body: try JSONEncoder().encode(json), token: token)
  }

  /// One request, retried with backoff when the network fails (not when the server answers).
  func send(
    _ method: String, _ path: String, body: Data?, token: String?, contentType: String = "application/json"
  ) async throws -> Data {
    try await Self.send(method, path, body: body, token: token, contentType: contentType, url: url, session: session)
  }

  static func send(
    _ method: String, _ path: String, body: Data?, token: String?, contentType: String = "application/json",
    url: URL, session: URLSession
  ) async throws -> Data {
    var request = URLRequest(url: url.appendingPathComponent(String(path.dropFirst())))
    request.httpMethod = method
    request.httpBody = body
    if body != nil { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    var delay: UInt64 = 200_000_000
    var attempt = 0
    while true {
      do {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw SyncError.badResponse("not HTTP") }
        if (200..<300).contains(http.statusCode) { return data }
        if http.statusCode == 400, let serverTime = Self.serverTime(data) { throw SyncError.clockAhead(serverTime) }
        if http.statusCode == 413 {
          let named = Self.namedRecord(data)
          throw SyncError.tooLarge(Self.message(data), dataset: named?.dataset, id: named?.id)
        }
        throw SyncError.http(status: http.statusCode, message: Self.message(data))
      } catch let error as SyncError {
        throw error.refined
      } catch {
        attempt += 1
        if attempt >= 4 {
          throw SyncError.unreachable(url.absoluteString, reason: (error as NSError).localizedDescription)
        }
        try await Task.sleep(nanoseconds: delay)
        delay *= 3
      }
    }
  }

  /// The server's time, sent with a refusal of clock readings too far ahead.
  static func serverTime(_ data: Data) -> Date? {
    struct Body: Decodable { let server_time: String }
    return (try? JSONDecoder().decode(Body.self, from: data)).flatMap { ISO8601.date(from: $0.server_time) }
  }

  /// The record a 413 names, when the server named one.
  static func namedRecord(_ data: Data) -> (dataset: String, id: String)? {
    struct Body: Decodable {
      struct Inner: Decodable {
        let dataset: String
        let id: String
      }
      let error: Inner
    }
    return (try? JSONDecoder().decode(Body.self, from: data)).map { ($0.error.dataset, $0.error.id) }
  }

  static func message(_ data: Data) -> String {
    struct Body: Decodable {
      struct Inner: Decodable { let message: String }
      let error: Inner
    }
    return (try? JSONDecoder().decode(Body.self, from: data).error.message) ?? "no message"
  }
}
