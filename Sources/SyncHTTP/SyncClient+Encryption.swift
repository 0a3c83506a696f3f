import Foundation
import Storage
import Sync

/// Turning end-to-end encryption on, entering the passphrase on another device, and changing it.
extension SyncClient {
  /// The wrapped key the server keeps, or nil when encryption is off for the account.
  public func fetchKey(token: String) async throws -> WrappedKey? {
    do {
      let data = try await send("GET", "/v1/keys/current", body: nil, token: token)
      struct Body: Decodable { let key: WrappedKey }
      guard let body = try? JSONDecoder().decode(Body.self, from: data) else { throw EncryptionError.damagedKey }
      return body.key
    } catch SyncError.http(404, _) {
      return nil
    }
  }

  /// Stores `wrapped` on the server; with `replaces`, as the rotation of that key.
  func putKey(_ wrapped: WrappedKey, replaces: String? = nil, token: String) async throws {
    let rotation = replaces.map { ",\"replaces\":" + WireJSON.quote($0) } ?? ""
    do {
      _ = try await send(
        "PUT", "/v1/keys/current", body: Data("{\"key\":\(wrapped.json)\(rotation)}".utf8), token: token)
    } catch SyncError.http(409, _) {
      throw EncryptionError.otherKey
    }
  }

  /// Turns encryption on: a new key goes to the server, which drops what it kept in the clear,
  /// and every record here is queued to be sent again, sealed. Run a sync first, so that this
  /// device holds everything the server had.
  public func turnOnEncryption(passphrase: String, token: String, logN: Int = WrappedKey.standardLogN)
    async throws -> SyncKey
  {
    if try await fetchKey(token: token) != nil { throw EncryptionError.alreadyOn }
    let key = try DataKey.generate()
    let wrapped = try WrappedKey.wrap(key, passphrase: passphrase, logN: logN)
    do { try await putKey(wrapped, token: token) } catch EncryptionError.otherKey {
      throw EncryptionError.alreadyOn
    }
    return try adopt(SyncKey(key: key, wrapped: wrapped, uploadedTo: url.absoluteString))
  }

  /// Opens the account's key with the passphrase and keeps it here. Everything on this device
  /// is queued to be sent again, sealed: what it sent in the clear was dropped by the server.
  public func unlock(passphrase: String, token: String) async throws -> SyncKey {
    guard let wrapped = try await fetchKey(token: token) else { throw EncryptionError.notOn }
    if let current = syncKey, current.key.keyID == wrapped.keyID {
      // Only the wrapping changed (a new passphrase): check it, keep the key.
      _ = try wrapped.unwrap(passphrase: passphrase)
      var updated = current
      updated.wrapped = wrapped
      updated.uploadedTo = url.absoluteString
      try updated.save(db, accountID: accountID)
      syncKey = updated
      return updated
    }
    let key = try wrapped.unwrap(passphrase: passphrase)
    return try adopt(SyncKey(key: key, wrapped: wrapped, uploadedTo: url.absoluteString))
  }

  /// Wraps the same key with a new passphrase; records stay as they are.
  public func changePassphrase(_ passphrase: String, token: String, logN: Int = WrappedKey.standardLogN)
    async throws
  {
    guard var current = syncKey else { throw EncryptionError.notOn }
    current.wrapped = try WrappedKey.wrap(current.key, passphrase: passphrase, logN: logN)
    try await putKey(current.wrapped, token: token)
    current.uploadedTo = url.absoluteString
    try current.save(db, accountID: accountID)
    syncKey = current
  }

  /// A new data key, after a device was lost: wrapped with `passphrase` and sent as the
  /// replacement of the current one, which the server destroys with everything sealed under it
  /// in the same transaction; every record here is queued to go again, sealed under the new
  /// key. Other devices are refused until they enter the passphrase. Sync first, so that this
  /// device holds everything the server had.
  public func rotateKey(passphrase: String, token: String, logN: Int = WrappedKey.standardLogN) async throws
    -> SyncKey
  {
    guard let current = syncKey else { throw EncryptionError.notOn }
    let key = try DataKey.generate()
    let wrapped = try WrappedKey.wrap(key, passphrase: passphrase, logN: logN)
    try await putKey(wrapped, replaces: current.key.keyID, token: token)
    return try adopt(SyncKey(key: key, wrapped: wrapped, uploadedTo: url.absoluteString))
  }

  private func adopt(_ key: SyncKey) throws -> SyncKey {
    try db.transaction { db in
      try key.save(db, accountID: accountID)
      try replica.requeueAll()
    }
    syncKey = key
    return key
  }

  /// A key made here but not yet on this server (another server, or the upload failed) goes
  /// there before any sealed record does.
  func uploadKeyIfNeeded(token: String) async throws {
    guard var key = syncKey, key.uploadedTo != url.absoluteString else { return }
    try await putKey(key.wrapped, token: token)
    key.uploadedTo = url.absoluteString
    try key.save(db, accountID: accountID)
    syncKey = key
  }

  /// For a server that lost everything (or a new server account): the key, when there is one,
  /// and every record are sent again on the next sync.
  public func resendEverything() throws {
    try db.transaction { db in
      if var key = syncKey {
        key.uploadedTo = nil
        try key.save(db, accountID: accountID)
        syncKey = key
      }
      try replica.requeueAll()
    }
  }
}
