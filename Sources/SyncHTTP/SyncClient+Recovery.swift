import Foundation
import Sync

extension SyncClient {
  /// A sync that recovers, once each, from the states a device can meet: encrypted data
  /// without the key, or a key rotated on another device (it unlocks with the passphrase
  /// `passphrase` gives, then syncs again), and a server that lost the key (it queues
  /// everything again, the key first). `passphrase`
  /// throws when none can be had; any other failure, or the same one twice, is thrown.
  public func syncRecovering(
    token: String, cursor: String?, saveCursor: (String) throws -> Void, passphrase: () throws -> String,
    progress: (Summary) -> Void = { _ in }
  ) async throws -> Summary {
    var cursor = cursor
    var loop = SyncLoop(limits: limits)
    while true {
      do {
        return try await sync(
          token: token, cursor: cursor,
          saveCursor: {
            cursor = $0
            try saveCursor($0)
          }, progress: progress)
      } catch let error as SyncError {
        switch loop.failed(error, hasKey: syncKey != nil) {
        case .unlock(let rotated):
          // After a rotation the new key replaces the old one here; everything goes again, sealed under it.
          let secret: String
          do { secret = try passphrase() } catch EncryptionError.passphraseNeeded where rotated {
            throw SyncError.keyRotated
          }
          _ = try await unlock(passphrase: secret, token: token)
        case .resendEverything: try resendEverything()
        default: throw error
        }
      }
    }
  }
}
