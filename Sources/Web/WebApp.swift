import Foundation
import Hummingbird
import Logging

/// What `vital web` serves, built alike by the binary and by the in-process tests.
public struct WebConfiguration: Sendable {
  public var host: String
  public var port: Int

  public init(host: String = "127.0.0.1", port: Int = 0) {
    self.host = host
    self.port = port
  }
}

/// The pages over `store`, open to the browsers `sessions` let in, at the Host `address` holds
/// once the server listens (`onRunning` gets the port).
public func buildWebApplication(
  configuration: WebConfiguration, store: WebStore, sessions: WebSessions, address: WebAddress,
  onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
  var logger = Logger(label: "vital-web")
  // Requests are not logged: their paths and forms hold health data.
  logger.logLevel = .warning
  let router = Router(context: WebContext.self)
  router.add(middleware: WebGuard(sessions: sessions, address: address))
  router.get("/static/vital.css") { _, _ in
    Response(
      status: .ok, headers: [.contentType: "text/css; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: Stylesheet.css)))
  }
  TodayRoutes(store: store).add(to: router)
  let host = configuration.host
  return Application(
    router: router,
    configuration: .init(address: .hostname(host, port: configuration.port), serverName: "vital"),
    onServerRunning: { channel in
      let port = channel.localAddress?.port ?? configuration.port
      address.listening(host: host, port: port)
      await onRunning(port)
    },
    logger: logger)
}
