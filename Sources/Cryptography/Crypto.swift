internal import COpenSSL
import Foundation

/// The few OpenSSL calls Vital makes. Every return code is checked here.
public enum Crypto {
  public enum Failure: Error, CustomStringConvertible {
    case random
    case kdf(String)

    public var description: String {
      switch self {
      case .random: return "the system could not provide random bytes; try again"
      case .kdf(let reason): return "password hashing failed (\(reason))"
      }
    }
  }

  /// `count` bytes from OpenSSL's CSPRNG.
  public static func randomBytes(_ count: Int) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw Failure.random }
    return bytes
  }

  public static func sha256(_ data: some DataProtocol) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    let bytes = Array(data)
    bytes.withUnsafeBufferPointer { vital_sha256($0.baseAddress, $0.count, &digest) }
    return digest
  }

  public static func sha256Hex(_ data: some DataProtocol) -> String {
    hex(sha256(data))
  }

  /// The SHA-256 of a string's UTF-8, in hex: the fast path for ids made from content.
  public static func sha256Hex(utf8 text: String) -> String {
    var text = text
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    text.withUTF8 { vital_sha256($0.baseAddress, $0.count, &digest) }
    return hex(digest)
  }

  /// Lower-case hex, by table: String(format:) per byte costs microseconds.
  /// A UUID named by `name`: the first 16 bytes of its SHA-256 marked as a version 8 (custom)
  /// UUID of RFC 9562, in lower case. The same name gives the same id on every device.
  public static func nameUUID(_ name: String) -> String {
    var bytes = Array(sha256(Data(name.utf8)).prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x80
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let hex = Array(hex(bytes))
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
  }

  public static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
      for (i, b) in bytes.enumerated() {
        out[2 * i] = digits[Int(b >> 4)]
        out[2 * i + 1] = digits[Int(b & 0x0f)]
      }
      return bytes.count * 2
    }
  }

  /// Compares in time that depends only on the length, not on where the bytes differ.
  public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return CRYPTO_memcmp(a, b, a.count) == 0
  }

  /// scrypt (RFC 7914). `maxMemory` bounds what OpenSSL may allocate; its default of 32 MB is too
  /// small for N = 2^17, r = 8.
  public static func scrypt(
    password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, length: Int,
    maxMemory: UInt64 = 1 << 30
  ) throws -> [UInt8] {
    var key = [UInt8](repeating: 0, count: length)
    let ok = password.withUnsafeBufferPointer { pass in
      pass.withMemoryRebound(to: CChar.self) { pass in
        EVP_PBE_scrypt(pass.baseAddress, pass.count, salt, salt.count, n, r, p, maxMemory, &key, length)
      }
    }
    guard ok == 1 else {
      let code = ERR_get_error()
      throw Failure.kdf(code == 0 ? "invalid parameters" : "OpenSSL error \(code)")
    }
    return key
  }
}
