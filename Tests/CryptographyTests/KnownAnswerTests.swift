import Foundation
import Testing

@testable import Cryptography

/// Published test vectors: if OpenSSL or the way these types drive it is wrong, the bytes differ.
@Suite struct KnownAnswerTests {
  static func bytes(_ hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      out.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    return out
  }

  static func key(_ hex: String) -> SymmetricKey { SymmetricKey(bytes: bytes(hex)) }

  @Test func sha256OfABC() {
    #expect(Crypto.sha256Hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  /// FIPS 180-2's other vectors: nothing, two blocks, and a million bytes; both entry points.
  @Test func sha256OfEmptyTwoBlocksAndAMillion() {
    let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    #expect(Crypto.sha256Hex(Data()) == empty)
    #expect(Crypto.sha256Hex(utf8: "") == empty)
    let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    let expected = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    #expect(Crypto.sha256Hex(Data(twoBlocks.utf8)) == expected)
    #expect(Crypto.sha256Hex(utf8: twoBlocks) == expected)
    #expect(
      Crypto.sha256Hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// RFC 4231, test case 2.
  @Test func hmacSHA256() throws {
    let mac = try HMACKey(SymmetricKey(bytes: Array("Jefe".utf8))).mac(Array("what do ya want for nothing?".utf8))
    #expect(Crypto.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
  }

  /// The GCM specification's test case 16 (AES-256, 60-byte plaintext, 20 bytes of AAD).
  @Test func aes256GCM() throws {
    let key = try AESGCMKey(Self.key("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
    let nonce = try AESGCMNonce(bytes: Self.bytes("cafebabefacedbaddecaf888"))
    let plaintext = Self.bytes(
      "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
    )
    let aad = Self.bytes("feedfacedeadbeeffeedfacedeadbeefabaddad2")
    let sealed = try key.dangerousSeal(explicitNonce: nonce, plaintext, aad: aad)
    #expect(
      Crypto.hex(sealed) == "cafebabefacedbaddecaf888"
        + "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
        + "76fc6ece0f4e1768cddf8853bb2d551b")
    #expect(key.open(sealed, aad: aad) == plaintext)
    var flipped = sealed
    flipped[20] ^= 1
    #expect(key.open(flipped, aad: aad) == nil)
    #expect(key.open(sealed, aad: []) == nil)
  }

  /// The default seal draws a fresh nonce each time.
  @Test func sealingTheSameValueTwiceGivesTwoCiphertexts() throws {
    let key = try AESGCMKey(SymmetricKey.random())
    let a = try key.seal([1, 2, 3], aad: [9])
    let b = try key.seal([1, 2, 3], aad: [9])
    #expect(a.prefix(12) != b.prefix(12) && a != b)
    #expect(key.open(a, aad: [9]) == [1, 2, 3] && key.open(b, aad: [9]) == [1, 2, 3])
  }

  /// NIST SP 800-38A, F.5.5 (CTR-AES256.Encrypt), first block.
  @Test func aes256CTR() throws {
    let key = try AESCTRKey(Self.key("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
    let iv = Self.bytes("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
    let block = Self.bytes("6bc1bee22e409f96e93d7e117393172a")
    let out = try iv.withUnsafeBufferPointer { iv in try block.withUnsafeBufferPointer { try key.apply(iv: iv, $0) } }
    #expect(Crypto.hex(out) == "601ec313775789a5b7a7f504bbf3d228")
  }

  /// RFC 5297, A.1: deterministic AES-SIV (AES-128-SIV, a 32-byte key).
  @Test func aesSIVDeterministic() throws {
    let key = try AESSIVKey(Self.key("fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"))
    let ad = Self.bytes("101112131415161718191a1b1c1d1e1f2021222324252627")
    let plaintext = Self.bytes("112233445566778899aabbccddee")
    let sealed = try key.seal(plaintext, associatedData: [ad])
    #expect(Crypto.hex(sealed) == "85632d07c6e8f37f950acd320a2ecc93" + "40c02b9690c4dc04daef7f6afe5c")
    #expect(key.open(sealed, associatedData: [ad]) == plaintext)
    #expect(key.open(sealed, associatedData: []) == nil)
    var flipped = sealed
    flipped[0] ^= 0x80
    #expect(key.open(flipped, associatedData: [ad]) == nil)
  }

  /// RFC 5297, A.2: AES-SIV with two associated data and a nonce (the last component).
  @Test func aesSIVWithSeveralAssociatedData() throws {
    let key = try AESSIVKey(Self.key("7f7e7d7c7b7a79787776757473727170404142434445464748494a4b4c4d4e4f"))
    let ad1 = Self.bytes("00112233445566778899aabbccddeeffdeaddadadeaddadaffeeddccbbaa99887766554433221100")
    let ad2 = Self.bytes("102030405060708090a0")
    let nonce = Self.bytes("09f911029d74e35bd84156c5635688c0")
    let plaintext = Self.bytes(
      "7468697320697320736f6d6520706c61696e7465787420746f20656e6372797074207573696e67205349562d414553")
    let sealed = try key.seal(plaintext, associatedData: [ad1, ad2, nonce])
    #expect(
      Crypto.hex(sealed) == "7bdb6e3b432667eb06f4d14bff2fbd0f"
        + "cb900f2fddbe404326601965c889bf17dba77ceb094fa663b7a3f748ba8af829ea64ad544a272e9c485b62a3fd5c0d")
    #expect(key.open(sealed, associatedData: [ad1, ad2, nonce]) == plaintext)
    #expect(key.open(sealed, associatedData: [ad2, ad1, nonce]) == nil, "the order of the data counts")
  }

  @Test func keysOfTheWrongLengthAreRefused() {
    #expect(throws: Crypto.CipherFailure.self) { try AESGCMKey(SymmetricKey(bytes: [UInt8](repeating: 1, count: 16))) }
    #expect(throws: Crypto.CipherFailure.self) { try AESSIVKey(SymmetricKey(bytes: [UInt8](repeating: 1, count: 16))) }
    #expect(throws: Crypto.CipherFailure.self) { try AESGCMNonce(bytes: [1, 2, 3]) }
  }

  /// Derived keys: HMAC(key, label) up to 32 bytes, then HMAC(key, label ‖ counter) blocks.
  @Test func derivedKeysFollowTheirDefinition() throws {
    let master = SymmetricKey(bytes: Array(0..<32))
    let hmac = try HMACKey(master)
    let short = try hmac.deriveKey("purpose")
    #expect(short.dangerousCopy() == (try hmac.mac(Array("purpose".utf8))))
    let long = try hmac.deriveKey("purpose", byteCount: 64)
    #expect(
      long.dangerousCopy()
        == (try hmac.mac(Array("purpose".utf8) + [1])) + (try hmac.mac(Array("purpose".utf8) + [2])))
  }
}
