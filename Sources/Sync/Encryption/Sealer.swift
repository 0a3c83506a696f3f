import Auth
import Foundation

/// Seals records on their way to the server and opens them on their way back (format in
/// docs/sync-protocol.md, "End-to-end encryption"). The server sees record ids that are
/// deterministic (the merge needs the same id from every device) but opaque, and values that
/// are AES-256-GCM ciphertext bound to their dataset, record, field and clock reading.
///
/// Holds OpenSSL contexts keyed once: one sealer per task, never shared between threads.
public final class Sealer {
  public let key: DataKey
  let values: AESGCMKey
  let idMAC: HMACKey
  let idCipher: AESCTRKey
  let blobNonce: HMACKey
  /// Nonces come from RAND_bytes in bulk: one call per 256 values instead of one per value.
  var nonces: [UInt8] = []
  var nonceIndex = 0

  public init(key: DataKey) throws {
    self.key = key
    values = try AESGCMKey(key.bytes)
    idMAC = try HMACKey(key.idMAC)
    idCipher = try AESCTRKey(key.idCipher)
    blobNonce = try HMACKey(key.blobNonce)
  }

  static let valuePrefix = "e1:"
  static let idPrefix = "e1."

  // MARK: Records

  /// A change with local id and values, sealed. A blob's id is the SHA-256 of its sealed bytes
  /// (`sealedBlob`), which is what the server checks an upload against.
  public func seal(_ change: WireChange, sealedBlob: Data? = nil) throws -> WireChange {
    let wireID = try sealedBlob.map { Crypto.sha256Hex($0) } ?? sealID(dataset: change.dataset, id: change.id)
    var fields: [String: WireField] = [:]
    fields.reserveCapacity(change.fields.count)
    for (name, field) in change.fields {
      let aad = Self.aad(change.dataset, wireID, name, field.hlc)
      fields[name] = WireField(value: try sealValue(field.value, aad: aad), hlc: field.hlc)
    }
    return WireChange(dataset: change.dataset, id: wireID, fields: fields)
  }

  /// A change from the server, opened. For a blob, `localID` is the SHA-256 of its opened bytes.
  public func open(_ change: WireChange, localID: String? = nil) throws -> WireChange {
    let id = try localID ?? openID(dataset: change.dataset, wireID: change.id)
    var fields: [String: WireField] = [:]
    fields.reserveCapacity(change.fields.count)
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

  func nextNonce() throws -> ArraySlice<UInt8> {
    if nonceIndex + 12 > nonces.count {
      nonces = try Crypto.randomBytes(12 * 256)
      nonceIndex = 0
    }
    defer { nonceIndex += 12 }
    return nonces[nonceIndex..<nonceIndex + 12]
  }

  func sealValue(_ value: WireValue, aad: [UInt8]) throws -> WireValue {
    let sealed = try values.seal(nonce: Array(try nextNonce()), plaintext: Self.encode(value), aad: aad)
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

  /// Deterministic authenticated encryption of an id (SIV with HMAC-SHA256 and AES-256-CTR):
  /// the same record gets the same server id from every device, and nobody without the key
  /// learns the id (dose ids hold times, goal ids titles).
  public func sealID(dataset: String, id: String) throws -> String {
    let iv = try syntheticIV(dataset: dataset, id: id)
    let body = try iv.withUnsafeBufferPointer { v in
      try Array(id.utf8).withUnsafeBufferPointer { try idCipher.apply(iv: v, $0) }
    }
    var text = Array(Self.idPrefix.utf8)
    (iv + body).withUnsafeBufferPointer { Base64.encode($0, url: true, into: &text) }
    return String(decoding: text, as: UTF8.self)
  }

  public func openID(dataset: String, wireID: String) throws -> String {
    guard wireID.hasPrefix(Self.idPrefix) else { throw EncryptionError.notSealed(dataset: dataset) }
    var text = wireID
    let raw = text.withUTF8 { Base64.decode(UnsafeBufferPointer(rebasing: $0.dropFirst(3)), url: true) }
    guard let raw, raw.count > 16 else { throw EncryptionError.tampered(dataset: dataset) }
    let body = try raw.withUnsafeBufferPointer { r in
      try idCipher.apply(
        iv: UnsafeBufferPointer(rebasing: r.prefix(16)), UnsafeBufferPointer(rebasing: r.dropFirst(16)))
    }
    guard let id = String(validating: body, as: UTF8.self),
      Crypto.constantTimeEqual(try syntheticIV(dataset: dataset, id: id), Array(raw.prefix(16)))
    else { throw EncryptionError.tampered(dataset: dataset) }
    return id
  }

  func syntheticIV(dataset: String, id: String) throws -> [UInt8] {
    var input = Array(dataset.utf8)
    input.append(0)
    input.append(contentsOf: id.utf8)
    return Array(try idMAC.mac(input).prefix(16))
  }

  // MARK: Blobs

  /// Blob bytes sealed with a nonce derived from their content: the same avatar sealed on two
  /// devices is one blob on the server, and its name can be found again from the bytes.
  public func sealBlob(_ data: Data) throws -> Data {
    let plain = Array(data)
    let nonce = Array(try blobNonce.mac(plain).prefix(AESGCMKey.nonceLength))
    return Data(try values.seal(nonce: nonce, plaintext: plain, aad: Self.blobAAD))
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
    (dataset == "blob" || id.hasPrefix(Sealer.idPrefix))
      && fields.values.allSatisfy {
        if case .string(let text) = $0.value { return text.hasPrefix(Sealer.valuePrefix) }
        return false
      }
  }
}
