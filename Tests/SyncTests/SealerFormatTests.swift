import Cryptography
import Foundation
import Testing

@testable import Sync

/// Known answers for what Vital writes on the server, computed outside Swift (Python's
/// `cryptography`, over OpenSSL) from the definitions in docs/sync-protocol.md: a change to
/// the format, the key derivation or the AAD breaks these, and old data would stop opening.
@Suite struct SealerFormatTests {
  /// The data key 00 01 02 … 1f.
  static let key = try! DataKey(bytes: Array(0..<32))
  static let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"

  @Test func theKeyIDIsTheFirstEightBytesOfItsHMAC() {
    #expect(Self.key.keyID == "0d40e377f94b2aa2")
  }

  /// `e2.`: AES-256-SIV under HMAC(k, "vital e2 id siv" ‖ 1) ‖ HMAC(k, "vital e2 id siv" ‖ 2),
  /// the dataset as associated data, base64url without padding.
  @Test func recordIDsAreSealedWithAESSIV() throws {
    let sealer = try Sealer(key: Self.key)
    #expect(try sealer.sealID(dataset: "donation", id: "d-1") == "e2.ezdE2Ix_sqHnJCCtD8gvbT6wdw")
    #expect(try sealer.openID(dataset: "donation", wireID: "e2.ezdE2Ix_sqHnJCCtD8gvbT6wdw") == "d-1")
  }

  /// `e1.` ids, as sealed before AES-SIV, still open.
  @Test func idsSealedTheOldWayStillOpen() throws {
    let sealer = try Sealer(key: Self.key)
    #expect(try sealer.openID(dataset: "donation", wireID: "e1.wJNJbIM1V8g9qwP2qOsfRzSWBw") == "d-1")
    #expect(try sealer.legacyIDs.seal(dataset: "donation", id: "d-1") == "e1.wJNJbIM1V8g9qwP2qOsfRzSWBw")
    #expect(throws: EncryptionError.tampered(dataset: "period")) {
      try sealer.openID(dataset: "period", wireID: "e1.wJNJbIM1V8g9qwP2qOsfRzSWBw")
    }
    #expect(throws: EncryptionError.notSealed(dataset: "donation")) {
      try sealer.openID(dataset: "donation", wireID: "d-1")
    }
    #expect(throws: EncryptionError.newerFormat(dataset: "donation")) {
      try sealer.openID(dataset: "donation", wireID: "e3.ezdE2Ix_sqHnJCCtD8gvbT6wdw")
    }
    #expect(throws: EncryptionError.notSealed(dataset: "donation")) {
      try sealer.openID(dataset: "donation", wireID: "e12-clear-id")
    }
  }

  /// `e1:` values: AES-256-GCM, nonce ‖ ciphertext ‖ tag in standard base64, the value's type
  /// tag first (5: text), bound to `"vital e1" 0 dataset 0 wire-id 0 field 0 hlc`.
  @Test func valuesAreAESGCMBoundToTheirPlace() throws {
    let sealer = try Sealer(key: Self.key)
    let id = "e2.ezdE2Ix_sqHnJCCtD8gvbT6wdw"
    let aad = Sealer.aad("donation", id, "place", Self.hlc)
    let sealed = try sealer.values.dangerousSeal(
      explicitNonce: AESGCMNonce(bytes: Array(0..<12)), Sealer.encode(.string("Ulm")), aad: aad)
    let expected = "e1:AAECAwQFBgcICQoLQle6do9nUUqSF7BeYFuICIkuiB8="
    #expect("e1:" + Data(sealed).base64EncodedString() == expected)
    let change = WireChange(
      dataset: "donation", id: id, fields: ["place": WireField(value: .string(expected), hlc: Self.hlc)])
    #expect(try sealer.open(change).fields["place"]?.value == .string("Ulm"))
    #expect(try sealer.open(change).id == "d-1")
  }
}
