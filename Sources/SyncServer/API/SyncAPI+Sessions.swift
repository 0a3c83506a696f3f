import Auth
import Cryptography
import Foundation
import Hummingbird
import Storage
import Sync

/// Logging in and out, and the sessions of an account: one per device, each with the name the
/// device gave, which its owner lists and can end from any other device.
extension SyncAPI {
  func login(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    let address = clientAddress(request, context)
    try checkAddress(address)
    let credentials = try await decode(Credentials.self, request, context)
    let deviceName = try Self.deviceName(credentials.device_name)
    let email = (try? Email.normalize(credentials.email)) ?? ""
    // An account left apart when emails were brought to NFC logs in by its old spelling.
    let legacy = Email.legacySpelling(credentials.email)
    let exact = Array(legacy.utf8) == Array(email.utf8) ? nil : try await repository.passwordHash(email: legacy)
    let stored = exact == nil ? try await repository.passwordHash(email: email) : exact
    // An unknown email costs one KDF run too, so both failures take the same time.
    let ok = try await hashing.run {
      try await configuration.hasher.verify(credentials.password, against: stored?.hash ?? AccountStore.decoyHash)
    }
    let now = configuration.now()
    // A locked account stays locked to the addresses that failed against it; its owner, from
    // an address that has not, still gets in with the right password.
    if let stored, let until = try await repository.lockedUntil(userID: stored.userID), until > now,
      !ok || limiter.hasFailed(address, against: stored.userID, now: now)
    {
      if !ok { limiter.recordFailure(address, account: stored.userID, now: now) }
      refused(address, .accountLocked)
      let minutes = Int((until.timeIntervalSince(now) / 60).rounded(.up))
      throw APIError(
        .tooManyRequests, .accountLocked,
        "too many failed logins; this account is locked for \(minutes) more minute\(minutes == 1 ? "" : "s")",
        headers: [.retryAfter: String(Int(until.timeIntervalSince(now).rounded(.up)))])
    }
    if let stored, try await repository.recordLogin(userID: stored.userID, succeeded: ok, now: now) {
      configuration.metrics.lockouts.increment()
    }
    guard ok, let stored else {
      configuration.metrics.failedLogins.increment()
      failed(address, account: stored?.userID, .failedLogin)
      throw APIError(.unauthorized, .wrongCredentials, "wrong email or password")
    }
    if stored.suspended { throw APIError(.forbidden, .suspended, Authenticate.suspended) }
    let token = try Crypto.randomBytes(32).map { String(format: "%02x", $0) }.joined()
    let digest = Crypto.sha256Hex(Data(token.utf8))
    try await repository.createToken(
      userID: stored.userID, tokenSHA256: digest, deviceName: deviceName, now: configuration.now())
    return Answer.json(
      .created,
      [
        "token": .string(token), "user_id": .string(stored.userID),
        "session_id": .string(DeviceSession.id(tokenSHA256: digest)),
      ])
  }

  func logout(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    try await repository.deleteToken(tokenSHA256: try context.requireLogin().tokenSHA256)
    return Response(status: .noContent)
  }

  /// `GET /v1/sessions`: the account's devices, the caller's own marked `current`.
  func sessions(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    let login = try context.requireLogin()
    let current = DeviceSession.id(tokenSHA256: login.tokenSHA256)
    let items = try await repository.sessions(userID: login.userID).map { session in
      "{\"id\":\(WireJSON.quote(session.id)),\"device_name\":\(WireJSON.quote(session.deviceName)),"
        + "\"created_at\":\(WireJSON.quote(ISO8601.string(from: session.created))),"
        + "\"last_used_at\":\(WireJSON.quote(ISO8601.string(from: session.lastUsed))),"
        + "\"current\":\(session.id == current)}"
    }
    return Answer.json(.ok, ["sessions": .storedArray(items)])
  }

  /// `DELETE /v1/sessions/{id}`: ends that device's session; its next call gets 401.
  func revoke(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    let login = try context.requireLogin()
    let id = try context.parameters.require("id")
    guard id.count == DeviceSession.idLength, id.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
      throw APIError(
        .badRequest, .badRequest,
        "a session is named by its id: 16 lowercase hex digits, as GET /v1/sessions lists them")
    }
    guard try await repository.deleteSession(userID: login.userID, id: id) else {
      throw APIError(.notFound, .notFound, "this account has no session with that id; list them with GET /v1/sessions")
    }
    return Response(status: .noContent)
  }

  /// What a device calls itself (`DeviceName`); a login without one is an unnamed device.
  static func deviceName(_ given: String?) throws -> String {
    guard let given, !given.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return DeviceName.unnamed }
    guard let name = DeviceName.checked(given) else {
      throw APIError(
        .badRequest, .badRequest,
        "device_name takes at most \(DeviceName.maxLength) characters and no control characters")
    }
    return name
  }
}
