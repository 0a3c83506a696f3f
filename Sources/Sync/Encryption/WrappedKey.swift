import Cryptography
import Foundation

/// The sync key as the server keeps it: sealed with AES-256-GCM under a key that scrypt derives
/// from the passphrase, with the salt and cost stored beside it. The server can store it and
/// hand it out; only someone who knows the passphrase can open it.
public struct WrappedKey: Codable, Equatable, Sendable {
  public var version = 1
  public var kdf = "scrypt"
  public var logN: Int
  public var r: Int
  public var p: Int
  public var salt: String
  public var nonce: String
  public var sealed: String
  public var keyID: String

  enum CodingKeys: String, CodingKey {
    case version = "v"
    case kdf, r, p, salt, nonce, sealed
    case logN = "ln"
    case keyID = "key_id"
  }

  /// The same cost as account passwords (DESIGN.md, Security rules).
  public static let standardLogN = ScryptPolicy.logN

  public static func wrap(_ key: DataKey, passphrase: String, logN: Int = standardLogN) throws -> WrappedKey {
    let salt = try Crypto.randomBytes(16)
    let kek = try Crypto.scryptKey(passphrase: passphrase, salt: salt, logN: logN, r: 8, p: 1)
    var plain = key.key.dangerousCopy()
    defer { Crypto.cleanse(&plain) }
    let sealed = try AESGCMKey(kek).seal(plain, aad: Self.aad(key.keyID))
    return WrappedKey(
      logN: logN, r: 8, p: 1, salt: Data(salt).base64EncodedString(),
      nonce: Data(sealed.prefix(AESGCMNonce.byteCount)).base64EncodedString(),
      sealed: Data(sealed.dropFirst(AESGCMNonce.byteCount)).base64EncodedString(), keyID: key.keyID)
  }

  /// The cost a server accepts for a new key: anything cheaper would make the passphrase
  /// easy to guess for whoever holds the server's copy.
  public static let serverLogN = 14...20

  /// What is wrong with this key's fields, or nil when it follows docs/sync-protocol.md
  /// ("End-to-end encryption"): version 1, scrypt with `ln` in `logN`, r 1..16, p 1..4, a
  /// 16-byte salt, a 12-byte nonce, a sealed 32-byte key with its tag, a 16-hex-digit key id.
  public func problem(logN allowed: ClosedRange<Int>) -> String? {
    guard version == 1, kdf == "scrypt" else { return "v must be 1 and kdf \"scrypt\"" }
    guard allowed.contains(logN) else { return "ln must be \(allowed.lowerBound) to \(allowed.upperBound)" }
    guard (1...16).contains(r), (1...4).contains(p) else { return "r must be 1 to 16 and p 1 to 4" }
    guard Data(base64Encoded: salt)?.count == 16 else { return "salt must be 16 bytes in base64" }
    guard Data(base64Encoded: nonce)?.count == AESGCMNonce.byteCount else { return "nonce must be 12 bytes in base64" }
    guard Data(base64Encoded: sealed)?.count == 48 else {
      return "sealed must be 48 bytes (a key and its tag) in base64"
    }
    guard keyID.count == 16, keyID.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
      return "key_id must be 16 lowercase hex digits"
    }
    return nil
  }

  /// The key, or `wrongPassphrase`. The cost comes from the server, so it is bounded before
  /// scrypt runs: a hostile server cannot make a device allocate gigabytes.
  public func unwrap(passphrase: String) throws -> DataKey {
    guard problem(logN: 10...20) == nil, let salt = Data(base64Encoded: salt), let nonce = Data(base64Encoded: nonce),
      let sealed = Data(base64Encoded: sealed)
    else { throw EncryptionError.damagedKey }
    let kek = try Crypto.scryptKey(passphrase: passphrase, salt: Array(salt), logN: logN, r: r, p: p)
    guard var bytes = try AESGCMKey(kek).open(Array(nonce + sealed), aad: Self.aad(keyID)) else {
      throw EncryptionError.wrongPassphrase
    }
    defer { Crypto.cleanse(&bytes) }
    let key = try DataKey(bytes: bytes)
    guard key.keyID == keyID else { throw EncryptionError.damagedKey }
    return key
  }

  static func aad(_ keyID: String) -> [UInt8] { Array("vital sync key v1 \(keyID)".utf8) }

  public var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
  }

}

extension WrappedKey {
  // Outside the type's body, so that Swift still writes the memberwise initializer.
  public init(json: String) throws {
    do { self = try JSONDecoder().decode(WrappedKey.self, from: Data(json.utf8)) } catch {
      throw EncryptionError.damagedKey
    }
  }
}
