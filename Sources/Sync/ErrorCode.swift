/// Why the server refused a request, for programs: every error answer is
/// `{"error": {"code": ..., "message": ...}}`. A client switches on the code, never on the
/// message, which is written for people and may change.
public enum ErrorCode: String, Sendable, CaseIterable, Codable {
  // 400
  /// The request is not what the endpoint takes (its JSON, a name in its path, a header).
  case badRequest = "bad_request"
  /// A value its dataset's rules refuse; the answer names `dataset`, `id` and `field`.
  case invalidValue = "invalid_value"
  /// A clock reading more than an hour ahead; the answer carries `server_time`.
  case clockAhead = "clock_ahead"
  /// An email that is not an address (registration).
  case invalidEmail = "invalid_email"
  /// A password the policy refuses (registration).
  case weakPassword = "weak_password"
  /// A wrapped key that cannot be used (`PUT /v1/keys/current`).
  case invalidKey = "invalid_key"
  /// Bytes that do not match the SHA-256 that names them (`PUT /v1/blobs/{sha256}`).
  case hashMismatch = "hash_mismatch"
  // 401, 403
  /// No token, or one that is unknown or expired: log in.
  case unauthorized
  /// The email or the password is wrong (`POST /v1/sessions`).
  case wrongCredentials = "wrong_credentials"
  case forbidden
  /// The server's operator suspended the account.
  case suspended
  /// The server takes no new accounts.
  case registrationClosed = "registration_closed"
  /// The server takes new accounts by invitation, and none (or an unusable one) came.
  case inviteRequired = "invite_required"
  // 404, 405, 408
  case notFound = "not_found"
  /// End-to-end encryption is off for the account: no sync key is stored.
  case noKey = "no_key"
  case methodNotAllowed = "method_not_allowed"
  case requestTimeout = "request_timeout"
  // 409
  case conflict
  /// An account with that email exists.
  case accountExists = "account_exists"
  /// The cursor cannot be served: sync again from the start.
  case resyncRequired = "resync_required"
  /// The account's records are sealed under a new key: the device needs the passphrase again.
  case keyRotated = "key_rotated"
  /// The account is end-to-end encrypted and takes only sealed values.
  case encrypted
  /// The account already has another sync key (`PUT /v1/keys/current`).
  case keyConflict = "key_conflict"
  // 413, 429, 5xx
  /// The body, or the number of changes in it, is over what the server takes.
  case tooLarge = "too_large"
  /// One value is over the server's limit; the answer names `dataset` and `id`.
  case valueTooLarge = "value_too_large"
  /// Too many failed logins or registrations from one address.
  case rateLimited = "rate_limited"
  /// Too many failed logins for the account: it is locked for a while.
  case accountLocked = "account_locked"
  /// The account's space on the server is full.
  case quota
  /// The server failed; its log says why.
  case `internal`
  /// The server is busy; try again after `Retry-After`.
  case busy

  /// The code of a refusal that names none more precise: by its status.
  public init(status: Int) {
    self =
      switch status {
      case 401: .unauthorized
      case 403: .forbidden
      case 404: .notFound
      case 405: .methodNotAllowed
      case 408: .requestTimeout
      case 409: .conflict
      case 413: .tooLarge
      case 429: .rateLimited
      case 503: .busy
      case 507: .quota
      case 500...: .internal
      default: .badRequest
      }
  }
}
