import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Storage
import Sync

extension SyncClient {
  // MARK: HTTP

  /// One client for the process: its connections stay open from one request to the next.
  /// Foundation's URLSession on Linux spent more CPU moving a first push than the server spent
  /// merging it: in a profile, mostly its dispatch threads waking one another (eventfd, futex).
  static let http: HTTPClient = {
    // A refused connection fails at once: `send` retries it a few times, briefly, where the
    // client would keep trying until its connect timeout (10 s each time).
    var pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(60))
    pool.retryConnectionEstablishment = false
    return HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup,
      configuration: HTTPClient.Configuration(
        redirectConfiguration: .follow(max: 5, allowCycles: false),
        timeout: .init(connect: .seconds(10), read: .seconds(60)), connectionPool: pool, decompression: .disabled))
  }()

  /// The most an answer may hold: a pull page is cut near 4 MiB of fields, a blob is smaller.
  static let answerLimit = 64 << 20

  func send(_ method: String, _ path: String, json: [String: String], token: String?) async throws -> Data {
    try await send(method, path, body: try JSONEncoder().encode(json), token: token)
  }

  /// One request, retried with backoff when the network fails (not when the server answers).
  func send(
    _ method: String, _ path: String, body: Data?, token: String?, contentType: String = "application/json"
  ) async throws -> Data {
    try await Self.send(method, path, body: body, token: token, contentType: contentType, url: url)
  }

  static func send(
    _ method: String, _ path: String, body: Data?, token: String?, contentType: String = "application/json",
    url: URL
  ) async throws -> Data {
    var request = HTTPClientRequest(url: url.appendingPathComponent(String(path.dropFirst())).absoluteString)
    request.method = HTTPMethod(rawValue: method)
    if let body {
      request.body = .bytes(ByteBuffer(bytes: body))
      request.headers.add(name: "Content-Type", value: contentType)
    }
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    var delay: UInt64 = 200_000_000
    var attempt = 0
    while true {
      do {
        let response = try await http.execute(request, timeout: .seconds(600))
        let data = Data(try await response.body.collect(upTo: answerLimit).readableBytesView)
        let status = Int(response.status.code)
        if (200..<300).contains(status) { return data }
        if status == 400, let serverTime = Self.serverTime(data) { throw SyncError.clockAhead(serverTime) }
        if status == 400, let named = Self.namedRecord(data) {
          throw SyncError.recordRefused(Self.message(data), dataset: named.dataset, id: named.id)
        }
        if status == 413 {
          let named = Self.namedRecord(data)
          throw SyncError.tooLarge(Self.message(data), dataset: named?.dataset, id: named?.id)
        }
        throw SyncError.http(status: status, message: Self.message(data))
      } catch let error as SyncError {
        throw error.refined
      } catch is NIOTooManyBytesError {
        // The server answered, too much: asking again would get the same.
        throw SyncError.badResponse("an answer over \(answerLimit >> 20) MiB")
      } catch {
        attempt += 1
        if attempt >= 4 { throw SyncError.unreachable(url.absoluteString, reason: Self.reason(error)) }
        try await Task.sleep(nanoseconds: delay)
        delay *= 3
      }
    }
  }

  /// What went wrong on the network, in a few words.
  static func reason(_ error: any Error) -> String {
    if let error = error as? NIOConnectionError {
      if let first = error.connectionErrors.first { return reason(first.error) }
      if error.dnsAError != nil || error.dnsAAAAError != nil { return "no such host" }
    }
    if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
    switch error as? HTTPClientError {
    case .connectTimeout?: return "no connection within 10 s"
    case .readTimeout?: return "no answer within 60 s"
    case .deadlineExceeded?: return "the request took more than 10 minutes"
    case .remoteConnectionClosed?: return "the server closed the connection"
    default: break
    }
    let text = String(describing: error)
    // The TLS library's errors name the reason deep inside a long description.
    if text.contains("CERTIFICATE_VERIFY_FAILED") { return "its TLS certificate is not one this machine trusts" }
    return String(text.prefix(200))
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

  /// A refusal's message as the record's reason: what the server kept of the request does not
  /// belong with the record.
  static func stripKept(_ message: String) -> String {
    guard let range = message.range(of: "; nothing of the request was kept") else { return message }
    return String(message[..<range.lowerBound])
  }

  static func message(_ data: Data) -> String {
    struct Body: Decodable {
      struct Inner: Decodable { let message: String }
      let error: Inner
    }
    return (try? JSONDecoder().decode(Body.self, from: data).error.message) ?? "no message"
  }
}
