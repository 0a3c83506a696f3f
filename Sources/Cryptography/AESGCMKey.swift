internal import COpenSSL
import Foundation

/// A 96-bit AES-GCM nonce that a caller chose, for `dangerousSeal` (`seal` draws its own at
/// random). One never used twice with the same key is the whole of GCM's safety.
public struct AESGCMNonce: Sendable, Equatable {
  public static let byteCount = 12
  public let bytes: [UInt8]

  public init(bytes: [UInt8]) throws {
    guard bytes.count == Self.byteCount else { throw Crypto.CipherFailure.badLength("nonce") }
    self.bytes = bytes
  }
}

/// AES-256-GCM under one key, for many values: the key schedule is computed once and each value
/// only sets its nonce. Sealed values are `nonce ‖ ciphertext ‖ tag`. Not for use from two
/// threads at once.
public final class AESGCMKey {
  public static let tagLength = 16
  let encryptor: CipherContext
  let decryptor: CipherContext
  /// Random nonces drawn in bulk: one call to the generator per 256 values instead of one each.
  var nonces: [UInt8] = []
  var nonceIndex = 0

  public init(_ key: SymmetricKey) throws {
    guard key.byteCount == 32 else { throw Crypto.CipherFailure.badLength("AES-256 key") }
    encryptor = try CipherContext()
    decryptor = try CipherContext()
    guard let cipher = Crypto.aes256GCM.cipher else { throw Crypto.CipherFailure.openSSL("fetch AES-256-GCM") }
    try key.withUnsafeBytes { raw in
      let key = raw.bindMemory(to: UInt8.self).baseAddress
      for (context, encrypt) in [(encryptor, Int32(1)), (decryptor, Int32(0))] {
        try Crypto.check(EVP_CipherInit_ex(context.handle, cipher, nil, nil, nil, encrypt), "init")
        try Crypto.check(EVP_CIPHER_CTX_ctrl(context.handle, Crypto.gcmSetIVLength, 12, nil), "nonce length")
        try Crypto.check(EVP_CipherInit_ex(context.handle, nil, nil, key, nil, encrypt), "key")
      }
    }
  }

  /// `plaintext` sealed under a fresh random nonce: `nonce ‖ ciphertext ‖ tag`.
  public func seal(_ plaintext: [UInt8], aad: [UInt8]) throws -> [UInt8] {
    if nonceIndex + AESGCMNonce.byteCount > nonces.count {
      nonces = try Crypto.randomBytes(AESGCMNonce.byteCount * 256)
      nonceIndex = 0
    }
    defer { nonceIndex += AESGCMNonce.byteCount }
    return try seal(nonce: nonces[nonceIndex..<nonceIndex + AESGCMNonce.byteCount], plaintext, aad: aad)
  }

  /// `plaintext` sealed under a nonce the caller chose. Dangerous: the same nonce twice under
  /// this key gives away both plaintexts' XOR and lets anyone forge values. Only for nonces that
  /// differ whenever the plaintext does (derived from it), and for known-answer tests.
  public func dangerousSeal(explicitNonce nonce: AESGCMNonce, _ plaintext: [UInt8], aad: [UInt8]) throws -> [UInt8] {
    try seal(nonce: nonce.bytes[...], plaintext, aad: aad)
  }

  private func seal(nonce: ArraySlice<UInt8>, _ plaintext: [UInt8], aad: [UInt8]) throws -> [UInt8] {
    let ctx = encryptor.handle
    var out = [UInt8](nonce)
    out.append(contentsOf: repeatElement(0, count: plaintext.count + Self.tagLength))
    try nonce.withUnsafeBufferPointer { nonce in
      try Crypto.check(EVP_EncryptInit_ex(ctx, nil, nil, nil, nonce.baseAddress), "nonce")
    }
    var length: Int32 = 0
    if !aad.isEmpty { try Crypto.check(EVP_EncryptUpdate(ctx, nil, &length, aad, Int32(aad.count)), "aad") }
    try out.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress! + AESGCMNonce.byteCount
      var written = 0
      if !plaintext.isEmpty {
        try Crypto.check(EVP_EncryptUpdate(ctx, base, &length, plaintext, Int32(plaintext.count)), "encrypt")
        written = Int(length)
      }
      try Crypto.check(EVP_EncryptFinal_ex(ctx, base + written, &length), "final")
      try Crypto.check(EVP_CIPHER_CTX_ctrl(ctx, Crypto.aeadGetTag, 16, base + plaintext.count), "tag")
    }
    return out
  }

  /// The plaintext of `nonce ‖ ciphertext ‖ tag`, or nil when it does not authenticate.
  public func open(_ sealed: [UInt8], aad: [UInt8]) -> [UInt8]? {
    guard sealed.count >= AESGCMNonce.byteCount + Self.tagLength else { return nil }
    let ctx = decryptor.handle
    let bodyCount = sealed.count - AESGCMNonce.byteCount - Self.tagLength
    var length: Int32 = 0
    return sealed.withUnsafeBufferPointer { sealed -> [UInt8]? in
      let body = sealed.baseAddress! + AESGCMNonce.byteCount
      guard EVP_DecryptInit_ex(ctx, nil, nil, nil, sealed.baseAddress) == 1,
        aad.isEmpty || EVP_DecryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) == 1
      else { return nil }
      var out = [UInt8](repeating: 0, count: bodyCount + Self.tagLength)
      let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
        var written = 0
        if bodyCount > 0 {
          guard EVP_DecryptUpdate(ctx, buffer.baseAddress, &length, body, Int32(bodyCount)) == 1 else { return false }
          written = Int(length)
        }
        let tag = UnsafeMutableRawPointer(mutating: body + bodyCount)
        guard EVP_CIPHER_CTX_ctrl(ctx, Crypto.aeadSetTag, 16, tag) == 1 else { return false }
        return EVP_DecryptFinal_ex(ctx, buffer.baseAddress! + written, &length) == 1
      }
      guard ok else { return nil }
      out.removeLast(Self.tagLength)
      return out
    }
  }
}
