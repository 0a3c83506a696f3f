import Auth
import Cryptography
import Foundation
import Hummingbird
import Logging
import NIOCore
import Replication
import Storage
import Sync

/// How a server runs; the binary and the tests build the same application from it.
public struct ServerConfiguration: Sendable {
  public var host: String
  public var port: Int
  public var bodyLimit = SyncLimits.standard.bodyBytes
  /// The longest value a change may carry, as it travels (sealed or not).
  public var valueLimit = SyncLimits.standard.valueBytes
  /// What each field of the datasets this server knows may hold (a change in the clear is
  /// checked against it); datasets it does not know are relayed as they come.
  public var rules: [String: [String: FieldRule]] = [:]
  public var maxChangesPerRequest = SyncLimits.changesPerRequest
  public var pageSize = 5000
  /// A pull page stops after the record that takes it past this many bytes of fields, so an
  /// answer stays near this size whatever the records hold.
  public var pageBytes = 4 << 20
  public var connections = ConnectionLimits()
  public var quota = Quota.none
  public var hasher = PasswordHasher.standard
  /// Who may create an account: anyone, no one, or whoever holds an invite code.
  public var registration = Registration.open
  /// What the server counts; served in Prometheus's format at `metricsAddress`, if any.
  public var metrics = ServerMetrics()
  public var metricsAddress: (host: String, port: Int)?
  /// Peers whose X-Forwarded-For names the client (`--trusted-proxy`); no one's by default.
  public var trustedProxies: [CIDR] = []
  /// Replaces the clock (VITAL_NOW), as everywhere in Vital.
  public var now: @Sendable () -> Date = { Date() }

  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }
}

/// Builds the HTTP application over a repository. `onRunning` learns the bound port, and
/// `onMetricsRunning` the metrics address's.
public func buildApplication(
  configuration: ServerConfiguration, repository: any SyncRepository,
  onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
  onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
  let api = SyncAPI(configuration: configuration, repository: repository)
  var logger = Logger(label: "vital-serve")
  logger.logLevel = .warning
  let router = Router(context: SyncRequestContext.self)
  // First, so that they wrap every route and the not-found answer; metrics outermost, to count
  // the status that ErrorBodies settles on.
  router.add(middleware: RequestMetrics(metrics: configuration.metrics))
  router.add(
    middleware: ErrorBodies(bodyLimit: configuration.bodyLimit, logger: logger, metrics: configuration.metrics))
  router.get("/healthz") { _, _ in ["status": "ok"] }
  // Open, like /healthz: a client checks it speaks the server's protocol before logging in.
  router.get("/v1/version") { _, _ in ServerVersion() }
  router.post("/v1/accounts") { request, context in try await api.register(request, context) }
  router.post("/v1/sessions") { request, context in try await api.login(request, context) }
  // Checks its token itself, in the sync's first query (one round trip fewer on PostgreSQL).
  router.post("/v1/sync") { request, context in try await api.sync(request, context) }
  // Everything else needs a login: the middleware puts the user in the context.
  router.group("/v1").add(middleware: Authenticate(repository: repository, now: configuration.now))
    .delete("accounts/current") { request, context in try await api.deleteAccount(request, context) }
    .delete("sessions/current") { request, context in try await api.logout(request, context) }
    .get("sessions") { request, context in try await api.sessions(request, context) }
    .delete("sessions/:id") { request, context in try await api.revoke(request, context) }
    .get("keys/current") { request, context in try await api.getKey(request, context) }
    .put("keys/current") { request, context in try await api.putKey(request, context) }
    .put("blobs/:sha256") { request, context in try await api.putBlob(request, context) }
    .get("blobs/:sha256") { request, context in try await api.getBlob(request, context) }
  let registry = ConnectionRegistry(limits: configuration.connections, open: configuration.metrics.connectionsOpen)
  var app = Application(
    router: router,
    server: .http1(
      configuration: .init(
        additionalChannelHandlers: [ConnectionGuard(registry: registry)],
        idleTimeout: TimeAmount(configuration.connections.idleTimeout))),
    configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "vital"),
    onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
    logger: logger)
  app.addServices(BlobCollector(repository: repository, metrics: configuration.metrics, now: configuration.now))
  if let address = configuration.metricsAddress {
    app.addServices(
      configuration.metrics.application(host: address.host, port: address.port, onRunning: onMetricsRunning))
  }
  return app
}

/// Who may create an account on the server (`vital serve --registration`).
public enum Registration: String, CaseIterable, Sendable {
  case open, closed, invite
}

struct Credentials: Decodable {
  let email: String
  let password: String
  /// A one-time code from `vital serve admin invite`, where registration is by invitation.
  let invite: String?
  /// What the logging-in device calls itself (`vital remote devices`).
  let device_name: String?
}

/// The endpoints. Domain errors become HTTP errors here, at the edge, with a message and never
/// a health value, password or token in it.
struct SyncAPI: Sendable {
  let configuration: ServerConfiguration
  let repository: any SyncRepository
  /// Scrypt takes 128 MiB and most of a second: at most two run at once.
  let hashing: Gate
  let limiter = AddressLimiter()

  init(configuration: ServerConfiguration, repository: any SyncRepository) {
    self.configuration = configuration
    self.repository = repository
    hashing = Gate(limit: 2, metrics: configuration.metrics)
  }

  func register(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    let address = clientAddress(request, context)
    try checkAddress(address)
    do {
      return try await register(try await decode(Credentials.self, request, context))
    } catch let error as APIError where [.forbidden, .conflict].contains(error.status) {
      // Refused, not malformed: an address that keeps trying closed doors or taken emails is limited.
      failed(address, account: nil, .registrationRefused)
      throw error
    }
  }

  private func register(_ credentials: Credentials) async throws -> Response {
    var invite: String?
    switch configuration.registration {
    case .open: break
    case .closed:
      throw APIError(.forbidden, .registrationClosed, "this server takes no new accounts; ask its operator")
    case .invite:
      guard let code = credentials.invite, !code.isEmpty else {
        throw APIError(
          .forbidden, .inviteRequired, "this server takes new accounts by invitation: register with --invite CODE")
      }
      invite = Crypto.sha256Hex(Data(code.utf8))
    }
    let email: String
    do { email = try Email.normalize(credentials.email) } catch {
      throw APIError(.badRequest, .invalidEmail, "\(error)")
    }
    do { try PasswordPolicy.check(credentials.password) } catch {
      throw APIError(.badRequest, .weakPassword, "\(error)")
    }
    let hash = try await hashing.run { try await configuration.hasher.hash(credentials.password) }
    do {
      let id = try await repository.createUser(
        email: email, passwordHash: hash, now: configuration.now(), inviteSHA256: invite)
      return Answer.json(.created, ["id": .string(id), "email": .string(email)])
    } catch SyncRepositoryError.emailTaken {
      throw APIError(.conflict, .accountExists, "an account with that email exists on this server; log in instead")
    } catch SyncRepositoryError.inviteRefused {
      throw APIError(
        .forbidden, .inviteRequired, "the invite code is unknown, used or older than 7 days; ask for a new one")
    }
  }

  func deleteAccount(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    let user = try context.requireLogin().userID
    try await repository.deleteUser(userID: user)
    return Response(status: .noContent)
  }

  func getKey(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    let user = try context.requireLogin().userID
    guard let key = try await repository.syncKey(userID: user) else {
      throw APIError(.notFound, .noKey, "end-to-end encryption is off for this account; no sync key is stored")
    }
    return Answer.json(.ok, ["key": .stored(key)])
  }

  /// The server stores the wrapped key as it came, after checking it is one small JSON object
  /// with a key id; it cannot open it.
  func putKey(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    let user = try context.requireLogin().userID
    struct Body: Decodable {
      let key: WrappedKey
      /// The key this one replaces: a rotation.
      let replaces: String?
    }
    var request = request
    let buffer = try await request.collectBody(upTo: 4096)
    let data = Data(buffer.readableBytesView)
    guard let body = try? JSONDecoder().decode(Body.self, from: data),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let key = object["key"] as? [String: Any],
      let keyJSON = try? JSONSerialization.data(withJSONObject: key, options: [.sortedKeys])
    else {
      throw APIError(
        .badRequest, .badRequest, "the body must be {\"key\": {...}}, a wrapped key as docs/sync-protocol.md describes")
    }
    // Checked before anything is stored or deleted: turning encryption on removes the cleartext,
    // and a key no device can open would leave the account unreadable.
    if let problem = body.key.problem(logN: WrappedKey.serverLogN) {
      throw APIError(.badRequest, .invalidKey, "the wrapped key is not usable: \(problem); nothing was changed")
    }
    switch try await repository.setSyncKey(
      userID: user, json: String(decoding: keyJSON, as: UTF8.self), keyID: body.key.keyID, replacing: body.replaces)
    {
    case .turnedOn: return Answer.json(.created, ["key_id": .string(body.key.keyID), "encryption": .string("on")])
    case .replaced, .rotated:
      return Answer.json(.ok, ["key_id": .string(body.key.keyID), "encryption": .string("on")])
    case .otherKey:
      throw APIError(
        .conflict, .keyConflict, "this account already has another sync key; enter its passphrase on this device")
    }
  }

  func putBlob(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    let user = try context.requireLogin().userID
    let sha = try blobName(context)
    var request = request
    let buffer = try await request.collectBody(upTo: configuration.bodyLimit)
    let data = Data(buffer.readableBytesView)
    guard Crypto.sha256Hex(data) == sha else {
      throw APIError(.badRequest, .hashMismatch, "the bytes do not match their SHA-256; nothing was stored")
    }
    do {
      try await repository.putBlob(
        userID: user, sha256: sha, data: data, quota: configuration.quota, now: configuration.now())
    } catch SyncRepositoryError.quotaExceeded(let usage) {
      throw Self.quotaError(usage)
    }
    return Response(status: .created)
  }

  func getBlob(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    let user = try context.requireLogin().userID
    let sha = try blobName(context)
    guard let data = try await repository.blob(userID: user, sha256: sha) else {
      throw APIError(.notFound, .notFound, "no blob with that hash")
    }
    return Response(
      status: .ok, headers: [.contentType: "application/octet-stream"],
      body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }

  // MARK: Helpers

  /// 507: the account's space on this server is full; nothing of the request was kept.
  static func quotaError(_ usage: String) -> APIError {
    APIError(
      HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), .quota,
      "this account's space on the server is full (it would hold \(usage)); nothing was stored: delete records, or ask whoever runs the server for more"
    )
  }

  func blobName(_ context: SyncRequestContext) throws -> String {
    let sha = try context.parameters.require("sha256")
    guard sha.count == 64, sha.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
      throw APIError(.badRequest, .badRequest, "a blob is named by its SHA-256 in 64 lowercase hex digits")
    }
    return sha
  }

  func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: SyncRequestContext) async throws -> T {
    var request = request
    let buffer = try await request.collectBody(upTo: configuration.bodyLimit)
    return try decode(T.self, Data(buffer.readableBytesView))
  }

  func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      throw APIError(.badRequest, .badRequest, "the body is not the JSON this endpoint takes (\(Self.describe(error)))")
    }
  }

  /// Where decoding failed, without echoing any value from the body.
  static func describe(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
      // Array positions as JSON Pointer writes them (`changes.0`), not as Swift names them.
      let path = c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
      guard !path.isEmpty else { return "invalid JSON, or a number too large for a double" }
      return "at \(path)"
    case .keyNotFound(let key, _):
      return "missing \(key.stringValue)"
    default:
      return "invalid JSON"
    }
  }
}
