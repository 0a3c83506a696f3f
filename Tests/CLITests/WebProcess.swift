import Foundation
import TestServer
import Testing

/// `vital web --listen 127.0.0.1:0` running over a test's home, and its printed link.
final class WebProcess {
  let process = Process()
  let firstLine: String
  let port: Int
  let token: String

  init(_ vital: VitalHome) throws {
    process.executableURL = VitalHome.binary
    process.arguments = ["web", "--listen", "127.0.0.1:0", "--home", vital.home]
    var environment = TestServer.processEnvironment
    environment.merge(vital.environment) { $1 }
    process.environment = environment
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    // The first line, byte by byte: nothing else comes until the process stops.
    var line = Data()
    while true {
      let byte = out.fileHandleForReading.readData(ofLength: 1)
      if byte.isEmpty || byte == Data("\n".utf8) { break }
      line.append(byte)
    }
    firstLine = String(decoding: line, as: UTF8.self)
    let match = try #require(firstLine.firstMatch(of: #/:(\d+)/\?token=([0-9a-f]+)/#), "printed: \(firstLine)")
    port = Int(match.1)!
    token = String(match.2)
  }

  deinit { stop() }

  /// SIGTERM, as a service manager stops it; its exit status.
  @discardableResult
  func stop() -> Int32 {
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    return process.terminationStatus
  }

  func get(_ path: String, cookie: String? = nil, host: String? = nil) throws -> RawHTTP.Answer {
    try RawHTTP.send(port: port, method: "GET", path: path, host: host, cookie: cookie, body: nil)
  }

  func post(_ path: String, _ form: String, cookie: String? = nil) throws -> RawHTTP.Answer {
    try RawHTTP.send(port: port, method: "POST", path: path, host: nil, cookie: cookie, body: form)
  }

  /// Opens the printed link as a browser does: the cookie it gets.
  func logIn() throws -> String {
    let answer = try get("/?token=\(token)")
    let set = try #require(answer.headers["set-cookie"], "no cookie for the printed link: \(answer.status)")
    return String(set.split(separator: ";")[0])
  }
}

/// HTTP/1.1 over a plain socket to 127.0.0.1, one request per connection: what a test needs to
/// send any Host and read every header as it came.
enum RawHTTP {
  struct Answer {
    let status: Int
    /// Names in lower case; a header sent twice keeps its last value.
    let headers: [String: String]
    let body: String
  }

  static func send(port: Int, method: String, path: String, host: String?, cookie: String?, body: String?) throws
    -> Answer
  {
    var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
    if let cookie { request += "Cookie: \(cookie)\r\n" }
    if let body {
      request += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
    }
    request += "\r\n" + (body ?? "")
    let fd = try Loopback.connect(port: port)
    defer { close(fd) }
    let bytes = Array(request.utf8)
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      // A server may answer (413) and close before the whole body came: read what it said.
      if n < 0 && (errno == EPIPE || errno == ECONNRESET) { break }
      guard n > 0 else { throw CocoaError(.fileWriteUnknown) }
      sent += n
    }
    var answer = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { break }
      answer += buffer[0..<n]
    }
    let text = String(decoding: answer, as: UTF8.self)
    let parts = text.components(separatedBy: "\r\n\r\n")
    let head = parts[0].components(separatedBy: "\r\n")
    let status = Int(head[0].split(separator: " ").dropFirst().first ?? "") ?? 0
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let body = parts.dropFirst().joined(separator: "\r\n\r\n")
    return Answer(
      status: status, headers: headers, body: headers["transfer-encoding"] == "chunked" ? dechunked(body) : body)
  }

  /// A chunked body (a streamed download) as the bytes it carries.
  static func dechunked(_ body: String) -> String {
    var bytes = Array(body.utf8)[...]
    var out: [UInt8] = []
    while let end = bytes.firstIndex(of: UInt8(ascii: "\r")),
      let size = Int(String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self), radix: 16), size > 0
    {
      let start = end + 2
      out += bytes[start..<min(start + size, bytes.endIndex)]
      bytes = bytes[min(start + size + 2, bytes.endIndex)...]
    }
    return String(decoding: out, as: UTF8.self)
  }
}
