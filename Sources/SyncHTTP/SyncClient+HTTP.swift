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
        throw Refusal(data).error(status: status)
      } catch let error as SyncError {
        throw error
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

  /// A refusal's message as the record's reason: what the server kept of the request does not
  /// belong with the record.
  static func stripKept(_ message: String) -> String {
    guard let range = message.range(of: "; nothing of the request was kept") else { return message }
    return String(message[..<range.lowerBound])
  }
}
