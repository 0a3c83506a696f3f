internal import COpenSSL

extension AESGCMKey {
  /// Encrypts `buffer` in place under a fresh random nonce, and writes `nonce ‖ tag` (28 bytes)
  /// to `seal`: for pages that must keep their size, whose seal lives apart from the data.
  /// False when OpenSSL fails or the buffers are not the sizes this needs.
  public func sealInPlace(
    _ buffer: UnsafeMutableRawBufferPointer, aad: UnsafeRawBufferPointer, seal: UnsafeMutableRawBufferPointer
  ) -> Bool {
    guard seal.count >= AESGCMNonce.byteCount + Self.tagLength, buffer.count <= Int(Int32.max),
      let data = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
      let out = seal.baseAddress?.assumingMemoryBound(to: UInt8.self)
    else { return false }
    if nonceIndex + AESGCMNonce.byteCount > nonces.count {
      guard let fresh = try? Crypto.randomBytes(AESGCMNonce.byteCount * 256) else { return false }
      nonces = fresh
      nonceIndex = 0
    }
    nonces.withUnsafeBufferPointer { out.update(from: $0.baseAddress! + nonceIndex, count: AESGCMNonce.byteCount) }
    nonceIndex += AESGCMNonce.byteCount
    let ctx = encryptor.handle
    var length: Int32 = 0
    guard EVP_EncryptInit_ex(ctx, nil, nil, nil, out) == 1,
      aad.isEmpty
        || EVP_EncryptUpdate(
          ctx, nil, &length, aad.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(aad.count)) == 1,
      EVP_EncryptUpdate(ctx, data, &length, data, Int32(buffer.count)) == 1,
      EVP_EncryptFinal_ex(ctx, data + Int(length), &length) == 1,
      EVP_CIPHER_CTX_ctrl(ctx, Crypto.aeadGetTag, Int32(Self.tagLength), out + AESGCMNonce.byteCount) == 1
    else { return false }
    return true
  }

  /// Decrypts `buffer` in place with the `nonce ‖ tag` in `seal`; false when it does not
  /// authenticate (then `buffer` holds bytes that mean nothing).
  public func openInPlace(
    _ buffer: UnsafeMutableRawBufferPointer, aad: UnsafeRawBufferPointer, seal: UnsafeRawBufferPointer
  ) -> Bool {
    guard seal.count >= AESGCMNonce.byteCount + Self.tagLength, buffer.count <= Int(Int32.max),
      let data = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
      let nonce = seal.baseAddress?.assumingMemoryBound(to: UInt8.self)
    else { return false }
    let ctx = decryptor.handle
    var length: Int32 = 0
    let tag = UnsafeMutableRawPointer(mutating: nonce + AESGCMNonce.byteCount)
    return EVP_DecryptInit_ex(ctx, nil, nil, nil, nonce) == 1
      && (aad.isEmpty
        || EVP_DecryptUpdate(
          ctx, nil, &length, aad.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(aad.count)) == 1)
      && EVP_DecryptUpdate(ctx, data, &length, data, Int32(buffer.count)) == 1
      && EVP_CIPHER_CTX_ctrl(ctx, Crypto.aeadSetTag, Int32(Self.tagLength), tag) == 1
      && EVP_DecryptFinal_ex(ctx, data + Int(length), &length) == 1
  }
}
