import Foundation
import Hummingbird
import Logging

/// What `vital web` serves, built alike by the binary and by the in-process tests.
public struct WebConfiguration: Sendable {
  public var host: String
  public var port: Int
  /// `--allow-remote`: any Host naming the port is let in.
  public var remote: Bool

  public init(host: String = "127.0.0.1", port: Int = 0, remote: Bool = false) {
    self.host = host
    self.port = port
    self.remote = remote
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
  router.page("/static/vital.css") { _, _ in
    Response(
      status: .ok, headers: [.contentType: "text/css; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: Stylesheet.css)))
  }
  TodayRoutes(store: store).add(to: router)
  DonationRoutes(store: store).add(to: router)
  QuestionnaireRoutes(store: store).add(to: router)
  MedsRoutes(store: store).add(to: router)
  CycleRoutes(store: store).add(to: router)
  HealthRoutes(store: store).add(to: router)
  AreasRoutes(store: store).add(to: router)
  SyncRoutes(store: store).add(to: router)
  ExportRoutes(store: store).add(to: router)
  UndoRoutes(store: store).add(to: router)
  let host = configuration.host
  return Application(
    router: router,
    configuration: .init(address: .hostname(host, port: configuration.port), serverName: "vital"),
    onServerRunning: { channel in
      let port = channel.localAddress?.port ?? configuration.port
      address.listening(host: host, port: port)
      if configuration.remote { address.listeningToAnyHost(port: port) }
      await onRunning(port)
    },
    logger: logger)
}

extension Router where Context == WebContext {
  /// A page: answered to GET, and to HEAD with the same status and headers (WebGuard leaves
  /// out the body), as HTTP asks of every resource that answers GET.
  @discardableResult
  func page(
    _ path: RouterPath, use handler: @Sendable @escaping (Request, WebContext) async throws -> some ResponseGenerator
  ) -> Self {
    on(path, method: .get, use: handler)
    return on(path, method: .head, use: handler)
  }
}
