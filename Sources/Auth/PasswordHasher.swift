import Cryptography
import Foundation

/// Hashes and verifies passwords with scrypt through OpenSSL.
public struct PasswordHasher: Sendable {
  public var logN: Int
  public var r: Int
  public var p: Int
  public static let saltLength = 16
  public static let keyLength = 32

  /// The policy in force: N = 2^17, r = 8, p = 1 (about 0.6 s and 128 MiB here).
  public static let standard = PasswordHasher(logN: ScryptPolicy.logN, r: 8, p: 1)

  public init(logN: Int, r: Int, p: Int) {
    (self.logN, self.r, self.p) = (logN, r, p)
  }

  /// A new PHC string for `password`, with a fresh random salt.
  public func hash(_ password: String) throws -> String {
    let salt = try Crypto.randomBytes(Self.saltLength)
    let key = try derive(password, salt: salt, logN: logN, r: r, p: p, length: Self.keyLength)
    return ScryptHash(logN: logN, r: r, p: p, salt: salt, hash: key).phc
  }

  /// Whether `password` matches the stored PHC string; a malformed string is an error.
  public func verify(_ password: String, against phc: String) throws -> Bool {
    let stored = try ScryptHash(phc: phc)
    let key = try derive(
      password, salt: stored.salt, logN: stored.logN, r: stored.r, p: stored.p, length: stored.hash.count)
    return Crypto.constantTimeEqual(key, stored.hash)
  }

  /// True when the stored hash was made with less work than this hasher does.
  public func needsRehash(_ phc: String) -> Bool {
    guard let stored = try? ScryptHash(phc: phc) else { return true }
    return stored.cost < (1 << logN) * r * p || stored.hash.count < Self.keyLength
  }

  /// A 32-byte key from `passphrase`, derived as a password's hash is (these parameters, the
  /// same NFC normalisation): for a key that a passphrase wraps, such as a sealed database's.
  public func key(for passphrase: String, salt: [UInt8]) throws -> SymmetricKey {
    var bytes = try derive(passphrase, salt: salt, logN: logN, r: r, p: p, length: Self.keyLength)
    defer { Crypto.cleanse(&bytes) }
    return SymmetricKey(bytes: bytes)
  }

  /// The same as `hash`, run on a Dispatch queue so the cooperative pool is never blocked.
  public func hash(_ password: String) async throws -> String {
    try await offPool { try self.hash(password) }
  }

  public func verify(_ password: String, against phc: String) async throws -> Bool {
    try await offPool { try self.verify(password, against: phc) }
  }

  private func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async {
        continuation.resume(with: Result { try work() })
      }
    }
  }

  /// Passwords are hashed in Unicode NFC so the same phrase typed on two keyboards matches.
  private func derive(_ password: String, salt: [UInt8], logN: Int, r: Int, p: Int, length: Int) throws -> [UInt8] {
    try Crypto.scrypt(
      password: Array(password.precomposedStringWithCanonicalMapping.utf8), salt: salt,
      n: 1 << UInt64(logN), r: UInt64(r), p: UInt64(p), length: length)
  }
}
