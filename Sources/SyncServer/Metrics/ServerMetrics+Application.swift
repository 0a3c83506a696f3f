import Hummingbird
import Logging
import NIOCore

extension ServerMetrics {
  /// `GET /metrics` on its own address, so that the monitoring address can stay private while
  /// the sync address faces the proxy. Runs as a service of the main application.
  func application(host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void)
    -> some ApplicationProtocol
  {
    let router = Router()
    router.get("/metrics") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(bytes: self.exposition())))
    }
    var logger = Logger(label: "vital-serve-metrics")
    logger.logLevel = .warning
    return Application(
      router: router, configuration: .init(address: .hostname(host, port: port), serverName: "vital"),
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) }, logger: logger)
  }
}
