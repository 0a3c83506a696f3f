import Foundation
import Testing

@testable import Sync

/// The sealing format on its own: what opens, and everything that must not.
@Suite struct SealerTests {
  let sealer = try! Sealer(key: try! DataKey.generate())
  let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"

  func change(_ fields: [String: WireValue], id: String = "d-1") -> WireChange {
    WireChange(
      dataset: "donation", id: id, fields: WireFields(fields.mapValues { WireField(value: $0, hlc: hlc) }))
  }

  @Test func everyValueTypeOpensToItself() throws {
    let values: [String: WireValue] = [
      "kind": .null, "status": .bool(true), "notes": .bool(false), "scheduled_at": .int(-42),
      "completed_at": .double(62.5), "place": .string("Blutspende Zürich 🩸"),
    ]
    let sealed = try sealer.seal(change(values))
    #expect(sealed.id.hasPrefix("e2.") && sealed.id != "d-1")
    #expect(sealed.isSealed)
    #expect(try sealer.open(sealed) == change(values))
    #expect(!sealed.fields.values.contains { "\($0.value)".contains("Zürich") })
  }

  @Test func idsAreDeterministicPerDatasetAndOpenAgain() throws {
    let a = try sealer.sealID(dataset: "donation", id: "d-1")
    #expect(a == (try sealer.sealID(dataset: "donation", id: "d-1")))
    #expect(a != (try sealer.sealID(dataset: "period", id: "d-1")))
    #expect(try sealer.openID(dataset: "donation", wireID: a) == "d-1")
    // Another dataset's id, or another key's, does not open.
    #expect(throws: EncryptionError.tampered(dataset: "period")) { try sealer.openID(dataset: "period", wireID: a) }
    let other = try Sealer(key: try DataKey.generate())
    #expect(throws: EncryptionError.tampered(dataset: "donation")) { try other.openID(dataset: "donation", wireID: a) }
    // The longest local id still fits the server's limit.
    let long = try sealer.sealID(dataset: "goal", id: String(repeating: "x", count: 200))
    #expect(long.utf8.count <= ChangeSetError.maxIDLength)
  }

  @Test func aValueOpensOnlyInItsOwnPlace() throws {
    let one = try sealer.seal(change(["place": .string("A"), "notes": .string("B")]))
    let two = try sealer.seal(change(["place": .string("C")], id: "d-2"))
    // Moved to another field of the same record.
    var moved = one
    moved.fields["notes"] = one.fields["place"]
    #expect(throws: EncryptionError.tampered(dataset: "donation")) { try sealer.open(moved) }
    // Swapped with another record's value.
    var swapped = one
    swapped.fields["place"] = two.fields["place"]
    #expect(throws: EncryptionError.tampered(dataset: "donation")) { try sealer.open(swapped) }
    // Given another clock reading (an old value replayed as new).
    var restamped = one
    restamped.fields["place"]!.hlc = "2026-11-22T11:00:00.000Z-0000-0123456789abcdef"
    #expect(throws: EncryptionError.tampered(dataset: "donation")) { try sealer.open(restamped) }
  }

  @Test func anyFlippedBitOrTruncationIsRefused() throws {
    let sealed = try sealer.seal(change(["place": .string("DRK Berlin")]))
    guard case .string(let text) = sealed.fields["place"]!.value else {
      Issue.record("not a string")
      return
    }
    let raw = Array(Data(base64Encoded: String(text.dropFirst(3)))!)
    for bit in stride(from: 0, to: raw.count * 8, by: 7) {
      var flipped = raw
      flipped[bit / 8] ^= UInt8(1 << (bit % 8))
      var tampered = sealed
      tampered.fields["place"]!.value = .string("e1:" + Data(flipped).base64EncodedString())
      #expect(throws: EncryptionError.tampered(dataset: "donation")) { try sealer.open(tampered) }
    }
    for length in [0, 5, 12, 27, raw.count - 1] {
      var truncated = sealed
      truncated.fields["place"]!.value = .string("e1:" + Data(raw.prefix(length)).base64EncodedString())
      #expect(throws: EncryptionError.tampered(dataset: "donation")) { try sealer.open(truncated) }
    }
    var clear = sealed
    clear.fields["place"]!.value = .string("DRK Berlin")
    #expect(throws: EncryptionError.notSealed(dataset: "donation")) { try sealer.open(clear) }
  }

  @Test func blobsAreSealedByContentAndChecked() throws {
    let bytes = Data((0..<3000).map { UInt8($0 % 251) })
    let sealed = try sealer.sealBlob(bytes)
    #expect(sealed == (try sealer.sealBlob(bytes)))
    #expect(sealed.range(of: bytes.prefix(64)) == nil)
    #expect(try sealer.openBlob(sealed) == bytes)
    var flipped = sealed
    flipped[100] ^= 0x01
    #expect(throws: EncryptionError.tampered(dataset: "blob")) { try sealer.openBlob(flipped) }
  }

  @Test func theWrappedKeyOpensOnlyWithItsPassphrase() throws {
    let key = try DataKey.generate()
    let wrapped = try WrappedKey.wrap(key, passphrase: "a good sync passphrase", logN: 10)
    #expect(try wrapped.unwrap(passphrase: "a good sync passphrase").key.dangerousCopy() == key.key.dangerousCopy())
    #expect(throws: EncryptionError.wrongPassphrase) { try wrapped.unwrap(passphrase: "a good sync passphrasf") }
    #expect(!wrapped.json.contains(Data(key.key.dangerousCopy()).base64EncodedString()))
    // Costs from the server are bounded before scrypt runs.
    var costly = wrapped
    costly.logN = 30
    #expect(throws: EncryptionError.damagedKey) { try costly.unwrap(passphrase: "a good sync passphrase") }
    var swapped = wrapped
    swapped.keyID = "0000000000000000"
    #expect(throws: EncryptionError.wrongPassphrase) { try swapped.unwrap(passphrase: "a good sync passphrase") }
    #expect(throws: EncryptionError.damagedKey) { try WrappedKey(json: "{\"v\":1}") }
  }
}
