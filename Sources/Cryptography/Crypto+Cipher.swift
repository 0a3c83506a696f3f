internal import COpenSSL
import Foundation

/// What the keyed cipher contexts (AESGCMKey, AESSIVKey, AESCTRKey, HMACKey) share: errors, the scrypt key that wraps
/// the sync key, the EVP control codes, and `check`, where every OpenSSL return code is checked.
extension Crypto {
  public enum CipherFailure: Error, CustomStringConvertible {
    case openSSL(String)
    case badLength(String)

    public var description: String {
      switch self {
      case .openSSL(let step): return "encryption failed in OpenSSL (\(step)); try again"
      case .badLength(let what): return "the \(what) has the wrong length"
      }
    }
  }

  /// Derives a scrypt key from a passphrase (the sync key's wrapping key).
  public static func scryptKey(passphrase: String, salt: [UInt8], logN: Int, r: Int, p: Int) throws -> SymmetricKey {
    var bytes = try scrypt(
      password: Array(passphrase.utf8), salt: salt, n: 1 << UInt64(logN), r: UInt64(r), p: UInt64(p), length: 32)
    defer { Crypto.cleanse(&bytes) }
    return SymmetricKey(bytes: bytes)
  }

  // The EVP_CTRL_* macros are aliases Swift does not import; their values are OpenSSL's ABI.
  static let gcmSetIVLength: Int32 = 0x9
  /// EVP_CTRL_AEAD_GET_TAG and _SET_TAG, which GCM and SIV share.
  static let aeadGetTag: Int32 = 0x10
  static let aeadSetTag: Int32 = 0x11

  /// AES-256-GCM, fetched from OpenSSL's provider once per process. OpenSSL 3 builds every
  /// cipher of the provider on the first fetch of any (about a millisecond), and an implicit
  /// `EVP_aes_256_gcm()` fetches again at each key; this is the one fetch.
  static let aes256GCM = FetchedCipher(name: "AES-256-GCM")

  static func check(_ code: Int32, _ step: String) throws {
    guard code == 1 else { throw CipherFailure.openSSL(step) }
  }
}

/// One EVP cipher context, freed with its owner.
final class CipherContext {
  let handle: OpaquePointer

  init() throws {
    guard let handle = EVP_CIPHER_CTX_new() else { throw Crypto.CipherFailure.openSSL("context") }
    self.handle = handle
  }

  deinit { EVP_CIPHER_CTX_free(handle) }
}

/// A cipher fetched once and kept for the life of the process (never freed: statics live as long).
/// Its static's lazy, thread-safe initialiser fetches it: a second caller waits for the first.
struct FetchedCipher: @unchecked Sendable {
  let cipher: OpaquePointer?
  init(name: String) { cipher = EVP_CIPHER_fetch(nil, name, nil) }
}
