import Foundation
import Replication
import Storage
import Sync

/// What the server keeps, behind one protocol so that SQLite (one file) and PostgreSQL (several
/// servers) can both back it. Every call names the user it acts for; nothing crosses users.
public protocol SyncRepository: Sendable {
  /// Creates the account; with `inviteSHA256`, only by using up that invite (unused and under
  /// `Invite.lifetime` old) in the same transaction, else `inviteRefused` and no account.
  func createUser(email: String, passwordHash: String, now: Date, inviteSHA256: String?) async throws -> String
  /// Stores a one-time registration code by its SHA-256 (`vital serve admin invite`).
  func createInvite(sha256: String, now: Date) async throws
  func passwordHash(email: String) async throws -> (userID: String, hash: String, suspended: Bool)?
  func setPasswordHash(userID: String, hash: String) async throws
  /// When the account's lockout after repeated failed logins ends, if it is locked.
  func lockedUntil(userID: String) async throws -> Date?
  /// Counts a failed login (locking the account after `LoginLockout.attempts` in a row) or
  /// clears the count after a good one. True when this failure locked the account.
  @discardableResult
  func recordLogin(userID: String, succeeded: Bool, now: Date) async throws -> Bool
  /// A new session for a device that calls itself `deviceName`.
  func createToken(userID: String, tokenSHA256: String, deviceName: String, now: Date) async throws
  /// The user's sessions, oldest first: one per device that logged in and has not logged out.
  func sessions(userID: String) async throws -> [DeviceSession]
  /// Ends the user's session whose id is `id` (`DeviceSession.id`); false when there is none.
  func deleteSession(userID: String, id: String) async throws -> Bool
  /// The user a token belongs to, if it is known and was used in the last 30 days.
  func user(tokenSHA256: String, now: Date) async throws -> TokenUser?
  func deleteToken(tokenSHA256: String) async throws
  /// Deletes the user with every token, record and blob.
  func deleteUser(userID: String) async throws
  /// Applies `changes` and returns the records changed after `since`, in one transaction.
  /// The account may not grow past `quota` (a write that shrinks it is always taken).
  /// `keyID`, the key the device seals with: a different key than the account's (rotated) is
  /// refused with `keyRotated`, nothing written.
  func sync(
    userID: String, since: String?, changes: [ValidatedChange], page: PageBounds, quota: Quota, keyID: String?
  ) async throws -> SyncPage
  /// The same sync for whoever holds the token `tokenSHA256`: the token is checked as
  /// `user(tokenSHA256:now:)` checks it, where the backend can, in the sync's own first query.
  func sync(
    tokenSHA256: String, now: Date, since: String?, changes: [ValidatedChange], page: PageBounds, quota: Quota,
    keyID: String?
  ) async throws -> TokenSync
  /// Stores a blob's bytes, noting when (`collectBlobs` spares bytes younger than an hour).
  func putBlob(userID: String, sha256: String, data: Data, quota: Quota, now: Date) async throws
  func blob(userID: String, sha256: String) async throws -> Data?
  /// The account's wrapped sync key (JSON the server does not read beyond its key id), if its
  /// owner turned end-to-end encryption on.
  func syncKey(userID: String) async throws -> String?
  /// Stores the wrapped key. The first key turns encryption on and, in the same transaction,
  /// removes every record and blob kept in the clear (the devices send them again, sealed). A
  /// key with the same id replaces the stored one (a new passphrase). Another key is refused,
  /// unless `replacing` names the stored key: a rotation, which in the same transaction removes
  /// every record and blob sealed under the old key and the old key itself.
  func setSyncKey(userID: String, json: String, keyID: String, replacing: String?) async throws -> SyncKeyUpdate

  /// Deletes the bytes of every blob no live record points at any more, in every account: no
  /// `blob` record names them and they were stored before `storedBefore` (a device uploads the
  /// bytes just before the sync that carries their record), or their record is deleted in the
  /// clear. A sealed tombstone cannot be read, so an encrypted account's deleted blobs stay.
  func collectBlobs(storedBefore: Date) async throws -> CollectedBlobs

  // MARK: Administration (`vital serve admin`, `backup`, `restore`)

  /// Writes every table to `writer` from one consistent snapshot, while the server serves.
  func backup(to writer: BackupWriter) async throws
  /// Loads a backup into this store, which must hold no account, all or nothing. The store
  /// gets a new epoch, so every device's cursor is refused once and the device syncs afresh.
  func restore(from reader: BackupReader) async throws

  /// Every account with what it keeps, never a value: for the operator's overview.
  func accounts() async throws -> [AdminAccount]
  /// Suspends or resumes the account of `email`; false when there is none.
  func setSuspended(email: String, _ suspended: Bool) async throws -> Bool
}

/// One logged-in device, as its owner sees it in `vital remote devices`.
public struct DeviceSession: Sendable, Equatable {
  /// The first 16 hex digits of the token's SHA-256: names the session without being able to
  /// stand in for the token.
  public let id: String
  public let deviceName: String
  public let created: Date
  /// Updated at most once a minute.
  public let lastUsed: Date

  /// How long an id is: `DeviceSession.id(tokenSHA256:)`.
  public static let idLength = 16

  public static func id(tokenSHA256: String) -> String { String(tokenSHA256.prefix(idLength)) }

  /// A session unused this long is over: its token is deleted when it comes back.
  public static let idleLifetime: TimeInterval = 30 * 86_400
  /// How stale `lastUsed` may grow before a call writes it again (one write a minute at most).
  public static let touchInterval: TimeInterval = 60

  /// What a call at `now` does with a session last used at `lastUsed`.
  public enum Use: Sendable, Equatable {
    case expired, touch, fresh
  }

  public static func use(lastUsed: Date, now: Date) -> Use {
    let idle = now.timeIntervalSince(lastUsed)
    return idle > idleLifetime ? .expired : idle > touchInterval ? .touch : .fresh
  }
}

/// What `collectBlobs` deleted.
public struct CollectedBlobs: Sendable, Equatable {
  public var blobs: Int
  public var bytes: Int64

  public init(blobs: Int, bytes: Int64) {
    self.blobs = blobs
    self.bytes = bytes
  }

  /// How long the bytes of a blob no record names yet are kept: the sync that carries its
  /// record follows the upload at once, or went wrong.
  public static let grace: TimeInterval = 3600
}

/// A sync asked for with a token: the page, or why the token does not open the account.
public enum TokenSync: Sendable {
  case synced(SyncPage)
  case unknownToken
  case suspended
}

/// A token's user, and whether the operator suspended the account (403 on every call).
public struct TokenUser: Sendable, Equatable {
  public let id: String
  public let suspended: Bool
}

/// One account as the operator sees it: counts and sizes, no email of anyone else, no value.
public struct AdminAccount: Sendable, Equatable {
  public let email: String
  public let created: Date
  /// The last sync request, pull or push.
  public let lastSync: Date?
  /// Logged-in sessions (one per device that logged in).
  public let devices: Int
  public let records: Int64
  public let storedBytes: Int64
  public let encrypted: Bool
  public let suspended: Bool
}

public enum SyncKeyUpdate: Sendable, Equatable {
  case turnedOn
  case replaced
  case rotated
  case otherKey

  /// What storing key `new` does to an account whose key is `current`, the one rule both
  /// repositories apply: the first key turns encryption on, the same id re-wraps, and another
  /// key is taken only as the rotation of the key it names in `replacing`.
  static func decide(current: String?, new: String, replacing: String?) -> SyncKeyUpdate {
    guard let current else { return .turnedOn }
    if current == new { return .replaced }
    return current == replacing ? .rotated : .otherKey
  }

  /// Whether everything stored under the account's former state (cleartext, or the old key)
  /// goes with this update.
  var dropsRecords: Bool { self == .turnedOn || self == .rotated }
}

public struct ValidatedChange: Sendable {
  /// Any well-formed dataset name: the server relays datasets it does not know.
  public let dataset: String
  public let id: String
  /// Each field's value as it travels, and its clock reading in canonical text (which sorts like
  /// the clock, so the merge compares text).
  public let fields: WireFields
  /// Sealed values (and id): what an encrypted account accepts.
  public let sealed: Bool
  /// `fields` as the request wrote them (`SyncRequest.sentFields`): stored as they are when they
  /// make a new record.
  public var sent: String? = nil
}

/// How much one account may keep on the server: bytes of records' fields and blobs, and
/// records. Nil is no bound. Kept as running totals per account, so a check costs nothing.
public struct Quota: Sendable, Equatable {
  public var bytes: Int?
  public var records: Int?

  public init(bytes: Int? = nil, records: Int? = nil) {
    self.bytes = bytes
    self.records = records
  }

  public static let none = Quota()

  /// Throws `quotaExceeded` when totals that grew now pass a bound.
  func check(bytes: Int64, records: Int64, grew: Bool) throws {
    guard grew else { return }
    if let limit = self.bytes, bytes > limit {
      throw SyncRepositoryError.quotaExceeded(
        "\(Replica.describe(bytes: Int(bytes))) of \(Replica.describe(bytes: limit))")
    }
    if let limit = self.records, records > limit {
      throw SyncRepositoryError.quotaExceeded("\(records) of \(limit) records")
    }
  }
}

/// How much one pull page holds at most: `count` records, and no record begun after `bytes`
/// bytes of fields (the first record always fits, whatever its size).
public struct PageBounds: Sendable {
  public var count: Int
  public var bytes: Int

  public init(count: Int, bytes: Int) {
    self.count = count
    self.bytes = bytes
  }
}

/// A page of changes, already JSON: stored records are sent as they are kept.
public struct SyncPage: Sendable {
  public let changesJSON: [String]
  public let cursor: String
  public let hasMore: Bool
  public let accepted: Int
  /// The account is end-to-end encrypted: a device without its key must ask for the passphrase.
  public let encrypted: Bool
}

extension SyncRepository {
  /// The token is looked up first, then the user's sync runs: SQLite's in-process lookup costs
  /// next to nothing.
  public func sync(
    tokenSHA256: String, now: Date, since: String?, changes: [ValidatedChange], page: PageBounds, quota: Quota,
    keyID: String?
  ) async throws -> TokenSync {
    guard let user = try await user(tokenSHA256: tokenSHA256, now: now) else { return .unknownToken }
    if user.suspended { return .suspended }
    return .synced(
      try await sync(userID: user.id, since: since, changes: changes, page: page, quota: quota, keyID: keyID))
  }

  public func createUser(email: String, passwordHash: String, now: Date) async throws -> String {
    try await createUser(email: email, passwordHash: passwordHash, now: now, inviteSHA256: nil)
  }
}

/// One-time registration codes, for a server whose registration is by invitation.
public enum Invite {
  /// How long a code stays good.
  public static let lifetime: TimeInterval = 7 * 86_400
}

public enum SyncRepositoryError: Error, Equatable {
  case emailTaken
  /// The invite code is unknown, used or expired.
  case inviteRefused
  case resyncRequired
  /// A change in the clear for an end-to-end encrypted account.
  case cleartextRefused
  /// The device seals with a key the account no longer has: it was rotated.
  case keyRotated
  /// The account would keep more than its quota; what it would hold, in words.
  case quotaExceeded(String)
}

extension SyncRepositoryError {
  /// The refusals a sync starts with, for an account whose key is `accountKey` (nil: in the
  /// clear) and a device that seals with `sealing`: a rotated key, or cleartext once encrypted.
  static func check(_ changes: [ValidatedChange], accountKey: String?, sealing: String?) throws {
    guard let accountKey else { return }
    if let sealing, sealing != accountKey { throw keyRotated }
    if changes.contains(where: { !$0.sealed }) { throw cleartextRefused }
  }
}
