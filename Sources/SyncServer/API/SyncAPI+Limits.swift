import Foundation
import Hummingbird
import Storage

/// Who is asking, and how often they failed: per-address limits on failed logins and refused
/// registrations, and the one log line each refusal writes for fail2ban (dist/fail2ban).
extension SyncAPI {
  /// Why a login or registration was refused, as the log line names it: a fixed set, matched
  /// by the filter in dist/fail2ban/filter.d/vital-serve.conf.
  enum Refusal: String {
    case failedLogin = "failed login"
    case addressLimited = "too many failures from this address"
    case accountLocked = "account locked"
    case registrationRefused = "registration refused"
  }

  /// The client's address: the peer's, or, when the peer is a trusted proxy, the nearest
  /// address in X-Forwarded-For that is not one (the header's right end is what the proxy saw;
  /// addresses to its left are what the client claimed, and anyone can claim anything).
  func clientAddress(_ request: Request, _ context: SyncRequestContext) -> String {
    let peer = context.peer ?? "unknown"
    let trusted = configuration.trustedProxies
    guard trusted.contains(where: { $0.contains(peer) }) else { return peer }
    // Several X-Forwarded-For fields are one list, in order.
    let hops = request.headers.filter { $0.name.canonicalName == "x-forwarded-for" }
      .flatMap { $0.value.split(separator: ",") }.map { $0.trimmingCharacters(in: CharacterSet.whitespaces) }
    for hop in hops.reversed() where CIDR.bytes(hop) != nil {
      if !trusted.contains(where: { $0.contains(hop) }) { return hop }
    }
    return peer
  }

  /// 429 with Retry-After when `address` failed too often of late.
  func checkAddress(_ address: String) throws {
    let now = configuration.now()
    guard let until = limiter.blockedUntil(address, now: now) else { return }
    refused(address, .addressLimited)
    let seconds = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
    throw APIError(
      .tooManyRequests, .rateLimited,
      "too many failed logins or registrations from this address; try again in \(seconds) seconds",
      headers: [.retryAfter: String(seconds)])
  }

  /// Counts a failure against `address` (and the account it tried, if any) and logs it.
  func failed(_ address: String, account: String?, _ reason: Refusal) {
    limiter.recordFailure(address, account: account, now: configuration.now())
    refused(address, reason)
  }

  /// One line on stderr, `2026-11-25T10:00:00+00:00 vital-serve refused 203.0.113.7: failed login`:
  /// the address and the reason, never the email tried.
  func refused(_ address: String, _ reason: Refusal) {
    configuration.metrics.refused(reason.rawValue)
    let time = ISO8601.string(from: configuration.now(), timeZone: TimeZone(identifier: "UTC")!)
    FileHandle.standardError.write(Data("\(time) vital-serve refused \(address): \(reason.rawValue)\n".utf8))
  }
}
