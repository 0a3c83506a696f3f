import Cryptography
import Foundation
import Replication

/// Seals records on their way to the server and opens them on their way back (format in
/// docs/sync-protocol.md, "End-to-end encryption"). The server sees record ids that are
/// deterministic (the merge needs the same id from every device) but opaque, and values that
/// are AES-256-GCM ciphertext bound to their dataset, record, field and clock reading.
///
/// Holds OpenSSL contexts keyed once: one sealer per task, never shared between threads.
public final class Sealer {
  public let key: DataKey
  let values: AESGCMKey
  let ids: AESSIVKey
  let legacyIDs: LegacyIDs
  let blobNonce: HMACKey

  public init(key: DataKey) throws {
    self.key = key
    values = try AESGCMKey(key.key)
    ids = try AESSIVKey(key.idSIV)
    legacyIDs = try LegacyIDs(key)
    blobNonce = try HMACKey(key.blobNonce)
  }

  static let valuePrefix = "e1:"
  /// Ids sealed with AES-SIV; `e1.` ids (`LegacyIDs`) are still read.
  static let idPrefix = "e2."

  // MARK: Records

  /// A change with local id and values, sealed. A blob's id is the SHA-256 of its sealed bytes
  /// (`sealedBlob`), which is what the server checks an upload against.
  public func seal(_ change: WireChange, sealedBlob: Data? = nil) throws -> WireChange {
    let wireID = try sealedBlob.map { Crypto.sha256Hex($0) } ?? sealID(dataset: change.dataset, id: change.id)
    var fields = WireFields(minimumCapacity: change.fields.count)
    for (name, field) in change.fields {
      let aad = Self.aad(change.dataset, wireID, name, field.hlc)
      fields[name] = WireField(value: try sealValue(field.value, aad: aad), hlc: field.hlc)
    }
    return WireChange(dataset: change.dataset, id: wireID, fields: fields)
  }

  /// A change from the server, opened. For a blob, `localID` is the SHA-256 of its opened bytes.
  public func open(_ change: WireChange, localID: String? = nil) throws -> WireChange {
    let id = try localID ?? openID(dataset: change.dataset, wireID: change.id)
    var fields = WireFields(minimumCapacity: change.fields.count)
    for (name, field) in change.fields {
      let aad = Self.aad(change.dataset, change.id, name, field.hlc)
      fields[name] = WireField(value: try openValue(field.value, aad: aad, dataset: change.dataset), hlc: field.hlc)
    }
    return WireChange(dataset: change.dataset, id: id, fields: fields)
  }

  /// The value's place is its additional data: moved to another field, record or clock
  /// reading, it no longer opens.
  static func aad(_ dataset: String, _ wireID: String, _ field: String, _ hlc: String) -> [UInt8] {
    var bytes: [UInt8] = Array("vital e1".utf8)
    bytes.reserveCapacity(12 + dataset.utf8.count + wireID.utf8.count + field.utf8.count + hlc.utf8.count)
    bytes.append(0)
    bytes.append(contentsOf: dataset.utf8)
    bytes.append(0)
    bytes.append(contentsOf: wireID.utf8)
    bytes.append(0)
    bytes.append(contentsOf: field.utf8)
    bytes.append(0)
    bytes.append(contentsOf: hlc.utf8)
    return bytes
  }

  // MARK: Values

  func sealValue(_ value: WireValue, aad: [UInt8]) throws -> WireValue {
    let sealed = try values.seal(Self.encode(value), aad: aad)
    var text = Array(Self.valuePrefix.utf8)
    sealed.withUnsafeBufferPointer { Base64.encode($0, into: &text) }
    return .string(String(decoding: text, as: UTF8.self))
  }

  func openValue(_ value: WireValue, aad: [UInt8], dataset: String) throws -> WireValue {
    guard case .string(var text) = value, text.hasPrefix(Self.valuePrefix) else {
      throw EncryptionError.notSealed(dataset: dataset)
    }
    let raw = text.withUTF8 { Base64.decode(UnsafeBufferPointer(rebasing: $0.dropFirst(3))) }
    guard let raw, let plain = values.open(raw, aad: aad), let opened = Self.decode(plain) else {
      throw EncryptionError.tampered(dataset: dataset)
    }
    return opened
  }

  /// A value as bytes: a type tag, then its payload.
  static func encode(_ value: WireValue) -> [UInt8] {
    switch value {
    case .null: return [0]
    case .bool(let b): return [b ? 2 : 1]
    case .int(let i): return [3] + withUnsafeBytes(of: i.bigEndian, Array.init)
    case .double(let d): return [4] + withUnsafeBytes(of: d.bitPattern.bigEndian, Array.init)
    case .string(let s): return [5] + Array(s.utf8)
    }
  }

  static func decode(_ bytes: [UInt8]) -> WireValue? {
    guard let tag = bytes.first else { return nil }
    let body = bytes.dropFirst()
    func word() -> UInt64? {
      guard body.count == 8 else { return nil }
      return body.reduce(0) { $0 << 8 | UInt64($1) }
    }
    switch tag {
    case 0 where body.isEmpty: return .null
    case 1 where body.isEmpty: return .bool(false)
    case 2 where body.isEmpty: return .bool(true)
    case 3: return word().map { .int(Int64(bitPattern: $0)) }
    case 4: return word().map { .double(Double(bitPattern: $0)) }
    case 5: return String(validating: body, as: UTF8.self).map { .string($0) }
    default: return nil
    }
  }

  // MARK: Ids

  /// Deterministic authenticated encryption of an id (AES-256-SIV, the dataset as associated
  /// data): the same record gets the same server id from every device, and nobody without the
  /// key learns the id (dose ids hold times, goal ids titles).
  public func sealID(dataset: String, id: String) throws -> String {
    let sealed = try ids.seal(Array(id.utf8), associatedData: [Array(dataset.utf8)])
    var text = Array(Self.idPrefix.utf8)
    sealed.withUnsafeBufferPointer { Base64.encode($0, url: true, into: &text) }
    return String(decoding: text, as: UTF8.self)
  }

  public func openID(dataset: String, wireID: String) throws -> String {
    let legacy = wireID.hasPrefix(LegacyIDs.prefix)
    guard legacy || wireID.hasPrefix(Self.idPrefix) else {
      // `e` and a version: a format this Vital does not know yet, rather than a clear id.
      let version = wireID.dropFirst().prefix(while: \.isASCII).prefix(while: \.isNumber)
      if wireID.hasPrefix("e"), !version.isEmpty, wireID.dropFirst(1 + version.count).hasPrefix(".") {
        throw EncryptionError.newerFormat(dataset: dataset)
      }
      throw EncryptionError.notSealed(dataset: dataset)
    }
    var text = wireID
    let raw = text.withUTF8 { Base64.decode(UnsafeBufferPointer(rebasing: $0.dropFirst(3)), url: true) }
    guard let raw else { throw EncryptionError.tampered(dataset: dataset) }
    if legacy { return try legacyIDs.open(dataset: dataset, raw: raw) }
    guard let plain = ids.open(raw, associatedData: [Array(dataset.utf8)]), !plain.isEmpty,
      let id = String(validating: plain, as: UTF8.self)
    else { throw EncryptionError.tampered(dataset: dataset) }
    return id
  }

  // MARK: Blobs

  /// Blob bytes sealed with a nonce derived from their content: the same avatar sealed on two
  /// devices is one blob on the server, and its name can be found again from the bytes.
  public func sealBlob(_ data: Data) throws -> Data {
    let plain = Array(data)
    // The nonce differs whenever the bytes do: the one case where a chosen nonce is safe.
    let nonce = try AESGCMNonce(bytes: Array(try blobNonce.mac(plain).prefix(AESGCMNonce.byteCount)))
    return Data(try values.dangerousSeal(explicitNonce: nonce, plain, aad: Self.blobAAD))
  }

  public func openBlob(_ data: Data) throws -> Data {
    guard let plain = values.open(Array(data), aad: Self.blobAAD) else {
      throw EncryptionError.tampered(dataset: "blob")
    }
    return Data(plain)
  }

  static let blobAAD = Array("vital e1 blob".utf8)
}

extension WireChange {
  /// What the server asks of every change for an encrypted account: sealed values and, but for
  /// blobs (named by their sealed bytes), sealed ids.
  public var isSealed: Bool {
    (dataset == Dataset.blobName || id.hasPrefix(Sealer.idPrefix) || id.hasPrefix(LegacyIDs.prefix))
      && fields.values.allSatisfy {
        if case .string(let text) = $0.value { return text.hasPrefix(Sealer.valuePrefix) }
        return false
      }
  }
}
