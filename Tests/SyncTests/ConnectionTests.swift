import Foundation
import TestServer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sockets that send nothing, or send slowly, cannot take a server down: idle ones close after
/// the idle timeout, the oldest idle ones make room when a bound is reached, and a request that
/// does not finish arriving is cut off, while `/healthz` keeps answering.
@Suite(.serialized) struct ConnectionTests {
  let folder: String

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-conn-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
    // This process opens a thousand sockets of its own.
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = max(limit.rlim_cur, min(limit.rlim_max, 8192))
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  }

  /// A TCP connection to 127.0.0.1:`port` that sends `text` (if any) and nothing more.
  static func open(port: Int, sending text: String? = nil) throws -> Int32 {
    let fd = try Loopback.connect(port: port)
    if let text { _ = text.withCString { send(fd, $0, strlen($0), 0) } }
    return fd
  }

  /// Whether the server has closed its end (EOF or reset), without waiting.
  static func isClosed(_ fd: Int32) -> Bool {
    var byte: UInt8 = 0
    let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
  }

  /// Seconds from `start` (by default now) until each socket was seen closed (nil: still open
  /// at the end), polled every 100 ms until `seconds` after `start`.
  static func waitUntilClosed(
    _ sockets: [Int32], within seconds: Double, since start: Date = Date()
  ) async throws -> [Double?] {
    var closed = [Double?](repeating: nil, count: sockets.count)
    while closed.contains(where: { $0 == nil }), Date().timeIntervalSince(start) < seconds {
      for (index, fd) in sockets.enumerated() where closed[index] == nil && isClosed(fd) {
        closed[index] = Date().timeIntervalSince(start)
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    return closed
  }

  static func healthz(_ url: URL) async throws -> Int {
    var request = URLRequest(url: url.appendingPathComponent("healthz"))
    request.timeoutInterval = 10
    let (_, response) = try await URLSession.shared.data(for: request)
    return (response as? HTTPURLResponse)?.statusCode ?? 0
  }

  @Test func aThousandIdleSocketsNeverKeepHealthzFromAnswering() async throws {
    let server = try TestServer(
      dataDirectory: folder + "/data", arguments: ["--idle-timeout", "8"], fileLimit: 1024)
    let port = server.port
    var sockets: [Int32] = []
    defer { for fd in sockets { close(fd) } }
    for n in 0..<1000 {
      sockets.append(try Self.open(port: port))
      if n % 250 == 249 { #expect(try await Self.healthz(server.url) == 200, "after \(n + 1) idle sockets") }
    }
    #expect(try await Self.healthz(server.url) == 200)
    // The oldest idle ones made room: at most 256 from one address stay open, well before the
    // idle timeout (8 s) would have closed any...
    let start = Date()
    var open = sockets.count
    while Date().timeIntervalSince(start) < 6 {
      open = sockets.filter { !Self.isClosed($0) }.count
      if open <= 256 { break }
      try await Task.sleep(for: .milliseconds(100))
    }
    #expect(open <= 256, "\(open) still open")
    // ...and those close once idle for the timeout (polled: a busy machine only makes it later).
    let closed = try await Self.waitUntilClosed(sockets, within: 30)
    #expect(closed.allSatisfy { $0 != nil }, "\(closed.filter { $0 == nil }.count) still open after 30 s")
    #expect(try await Self.healthz(server.url) == 200)
  }

  @Test func requestsThatNeverFinishArrivingAreCutOff() async throws {
    let server = try TestServer(
      dataDirectory: folder + "/data", arguments: ["--idle-timeout", "2", "--request-timeout", "4"])
    let post = "POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    // Measured from before the first byte went out, so a slow start never makes a close look early.
    let opened = Date()
    // Headers that never end; a body announced and never sent; a body sent a byte at a time.
    let sockets = [
      try Self.open(port: server.port, sending: "GET /healthz HTTP/1.1\r\nHost: x\r\n"),
      try Self.open(port: server.port, sending: post), try Self.open(port: server.port, sending: post),
    ]
    defer { for fd in sockets { close(fd) } }
    // The trickle keeps its connection from ever being idle: a byte every 100 ms from a thread
    // of its own, which tests blocking the shared pool cannot hold up, until the server closes.
    let trickled = sockets[2]
    Thread.detachNewThread {
      while Date().timeIntervalSince(opened) < 29, send(trickled, " ", 1, Int32(MSG_NOSIGNAL)) == 1 {
        usleep(100_000)
      }
    }
    // When each closes, from when they were opened: never before its timeout (timers do not
    // fire early), and not long after it.
    let closed = try await Self.waitUntilClosed(sockets, within: 30, since: opened)
    let (head, silent, trickle) = (try #require(closed[0]), try #require(closed[1]), try #require(closed[2]))
    #expect(head >= 1.8 && head < 20, "an unfinished head: closed once idle (2 s), at \(head)")
    #expect(silent >= 1.8 && silent < 20, "a body that stopped: closed once idle (2 s), at \(silent)")
    #expect(trickle >= 3.8 && trickle < 20, "a trickled body: closed at the request timeout (4 s), at \(trickle)")
    #expect(try await Self.healthz(server.url) == 200)
  }
}
