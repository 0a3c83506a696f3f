internal import COpenSSL
import Foundation

/// AES-256-GCM under one key, for many values: the key schedule is computed once and each value
/// only sets its nonce. Not for use from two threads at once.
public final class AESGCMKey {
  public static let nonceLength = 12
  public static let tagLength = 16
  let encryptor: CipherContext
  let decryptor: CipherContext

  public init(_ key: [UInt8]) throws {
    precondition(key.count == 32)
    encryptor = try CipherContext()
    decryptor = try CipherContext()
    try Crypto.check(EVP_EncryptInit_ex(encryptor.handle, EVP_aes_256_gcm(), nil, nil, nil), "init")
    try Crypto.check(EVP_CIPHER_CTX_ctrl(encryptor.handle, Crypto.gcmSetIVLength, 12, nil), "nonce length")
    try Crypto.check(EVP_EncryptInit_ex(encryptor.handle, nil, nil, key, nil), "key")
    try Crypto.check(EVP_DecryptInit_ex(decryptor.handle, EVP_aes_256_gcm(), nil, nil, nil), "init")
    try Crypto.check(EVP_CIPHER_CTX_ctrl(decryptor.handle, Crypto.gcmSetIVLength, 12, nil), "nonce length")
    try Crypto.check(EVP_DecryptInit_ex(decryptor.handle, nil, nil, key, nil), "key")
  }

  /// Appends ciphertext and the 16-byte tag to `out`.
  public func seal(
    nonce: UnsafeBufferPointer<UInt8>, plaintext: UnsafeBufferPointer<UInt8>, aad: UnsafeBufferPointer<UInt8>,
    into out: inout [UInt8]
  ) throws {
    let ctx = encryptor.handle
    try Crypto.check(EVP_EncryptInit_ex(ctx, nil, nil, nil, nonce.baseAddress), "nonce")
    var length: Int32 = 0
    if aad.count > 0 {
      try Crypto.check(EVP_EncryptUpdate(ctx, nil, &length, aad.baseAddress, Int32(aad.count)), "aad")
    }
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: plaintext.count + 16))
    try out.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress! + start
      var written = 0
      if plaintext.count > 0 {
        try Crypto.check(
          EVP_EncryptUpdate(ctx, base, &length, plaintext.baseAddress, Int32(plaintext.count)), "encrypt")
        written = Int(length)
      }
      try Crypto.check(EVP_EncryptFinal_ex(ctx, base + written, &length), "final")
      try Crypto.check(EVP_CIPHER_CTX_ctrl(ctx, Crypto.gcmGetTag, 16, base + plaintext.count), "tag")
    }
  }

  /// `nonce` ‖ ciphertext ‖ tag, for a few values (a key, a blob).
  public func seal(nonce: [UInt8], plaintext: [UInt8], aad: [UInt8]) throws -> [UInt8] {
    var out = nonce
    try nonce.withUnsafeBufferPointer { n in
      try plaintext.withUnsafeBufferPointer { p in
        try aad.withUnsafeBufferPointer { a in try seal(nonce: n, plaintext: p, aad: a, into: &out) }
      }
    }
    return out
  }

  /// Opens what `seal(nonce:plaintext:aad:)` made; nil when it does not authenticate.
  public func open(_ sealed: [UInt8], aad: [UInt8]) -> [UInt8]? {
    sealed.withUnsafeBufferPointer { r in
      guard r.count >= Self.nonceLength + Self.tagLength else { return nil }
      return aad.withUnsafeBufferPointer { a in
        open(
          nonce: UnsafeBufferPointer(rebasing: r.prefix(Self.nonceLength)),
          sealed: UnsafeBufferPointer(rebasing: r.dropFirst(Self.nonceLength)), aad: a)
      }
    }
  }

  /// The plaintext of `sealed` (ciphertext then tag), or nil when it does not authenticate.
  public func open(
    nonce: UnsafeBufferPointer<UInt8>, sealed: UnsafeBufferPointer<UInt8>, aad: UnsafeBufferPointer<UInt8>
  ) -> [UInt8]? {
    guard nonce.count == 12, sealed.count >= 16 else { return nil }
    let ctx = decryptor.handle
    let bodyCount = sealed.count - 16
    var length: Int32 = 0
    guard EVP_DecryptInit_ex(ctx, nil, nil, nil, nonce.baseAddress) == 1,
      aad.count == 0 || EVP_DecryptUpdate(ctx, nil, &length, aad.baseAddress, Int32(aad.count)) == 1
    else { return nil }
    var out = [UInt8](repeating: 0, count: bodyCount + 16)
    let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
      var written = 0
      if bodyCount > 0 {
        guard EVP_DecryptUpdate(ctx, buffer.baseAddress, &length, sealed.baseAddress, Int32(bodyCount)) == 1 else {
          return false
        }
        written = Int(length)
      }
      let tag = UnsafeMutableRawPointer(mutating: sealed.baseAddress! + bodyCount)
      guard EVP_CIPHER_CTX_ctrl(ctx, Crypto.gcmSetTag, 16, tag) == 1 else { return false }
      return EVP_DecryptFinal_ex(ctx, buffer.baseAddress! + written, &length) == 1
    }
    guard ok else { return nil }
    out.removeLast(16)
    return out
  }
}

/// AES-256-CTR under one key; encrypting and decrypting are the same.
public final class AESCTRKey {
  let context: CipherContext

  public init(_ key: [UInt8]) throws {
    precondition(key.count == 32)
    context = try CipherContext()
    try Crypto.check(EVP_EncryptInit_ex(context.handle, EVP_aes_256_ctr(), nil, key, nil), "ctr init")
  }

  public func apply(iv: UnsafeBufferPointer<UInt8>, _ data: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
    precondition(iv.count == 16)
    let ctx = context.handle
    try Crypto.check(EVP_EncryptInit_ex(ctx, nil, nil, nil, iv.baseAddress), "ctr iv")
    var out = [UInt8](repeating: 0, count: data.count + 16)
    var length: Int32 = 0
    var written = 0
    try out.withUnsafeMutableBufferPointer { buffer in
      if data.count > 0 {
        try Crypto.check(
          EVP_EncryptUpdate(ctx, buffer.baseAddress, &length, data.baseAddress, Int32(data.count)), "ctr")
        written = Int(length)
      }
      try Crypto.check(EVP_EncryptFinal_ex(ctx, buffer.baseAddress! + written, &length), "ctr final")
      written += Int(length)
    }
    out.removeLast(out.count - written)
    return out
  }
}

/// HMAC-SHA256 under one key, through OpenSSL 3's EVP_MAC: the key is set once.
public final class HMACKey {
  let mac: OpaquePointer
  let context: OpaquePointer

  public init(_ key: [UInt8]) throws {
    guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { throw Crypto.CipherFailure.openSSL("hmac fetch") }
    guard let context = EVP_MAC_CTX_new(mac) else {
      EVP_MAC_free(mac)
      throw Crypto.CipherFailure.openSSL("hmac context")
    }
    self.mac = mac
    self.context = context
    let digest = strdup("SHA256")
    defer { free(digest) }
    var params = [
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0), OSSL_PARAM_construct_end(),
    ]
    try Crypto.check(EVP_MAC_init(context, key, key.count, &params), "hmac key")
  }

  deinit {
    EVP_MAC_CTX_free(context)
    EVP_MAC_free(mac)
  }

  public func mac(_ parts: [UnsafeBufferPointer<UInt8>]) throws -> [UInt8] {
    // A nil key keeps the one set at init.
    try Crypto.check(EVP_MAC_init(context, nil, 0, nil), "hmac init")
    for part in parts where part.count > 0 {
      try Crypto.check(EVP_MAC_update(context, part.baseAddress, part.count), "hmac update")
    }
    var out = [UInt8](repeating: 0, count: 32)
    var length = 0
    try Crypto.check(EVP_MAC_final(context, &out, &length, 32), "hmac final")
    return out
  }

  public func mac(_ bytes: [UInt8]) throws -> [UInt8] {
    try bytes.withUnsafeBufferPointer { try mac([$0]) }
  }
}
