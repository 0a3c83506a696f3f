import Foundation
import Replication
import Storage

/// The wire format of sync (docs/sync-protocol.md): records as field maps, each field with its
/// value and the clock reading that wrote it.
public enum WireValue: Codable, Equatable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)

  public init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    if c.decodeNil() {
      self = .null
    } else if let b = try? c.decode(Bool.self) {
      self = .bool(b)
    } else if let i = try? c.decode(Int64.self) {
      self = .int(i)
    } else if let d = try? c.decode(Double.self) {
      self = .double(d)
    } else if let s = try? c.decode(String.self) {
      self = .string(s)
    } else {
      throw DecodingError.dataCorruptedError(
        in: c, debugDescription: "a value must be null, a boolean, a number or a string")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    switch self {
    case .null: try c.encodeNil()
    case .bool(let b): try c.encode(b)
    case .int(let i): try c.encode(i)
    case .double(let d): try c.encode(d)
    case .string(let s): try c.encode(s)
    }
  }

  public init(_ value: DatabaseValue) {
    switch value {
    case .null, .blob: self = .null  // blob bytes never travel in a change set
    case .integer(let i): self = .int(i)
    case .real(let d): self = .double(d)
    case .text(let s): self = .string(s)
    }
  }

  public var databaseValue: DatabaseValue {
    switch self {
    case .null: .null
    case .bool(let b): .integer(b ? 1 : 0)
    case .int(let i): .integer(i)
    case .double(let d): .real(d)
    case .string(let s): .text(s)
    }
  }
}

public struct WireField: Codable, Equatable, Sendable {
  public var value: WireValue
  public var hlc: String

  public init(value: WireValue, hlc: String) {
    self.value = value
    self.hlc = hlc
  }
}

public struct WireChange: Codable, Equatable, Sendable {
  public var dataset: String
  public var id: String
  public var fields: WireFields

  public init(dataset: String, id: String, fields: WireFields) {
    self.dataset = dataset
    self.id = id
    self.fields = fields
  }
}

public struct SyncRequest: Codable, Sendable {
  public var since: String?
  public var changes: [WireChange]
  /// The id of the key the device seals with, for an encrypted account: after a key rotation
  /// the server refuses a device still on the old key (409) instead of taking its ciphertext.
  public var keyID: String?
  /// The device reads fields that share a clock (`"*"`); a request without it (an older Vital)
  /// is answered with a clock in every field.
  public var sharedClocks: Bool
  /// Each change's fields object as the request wrote it, where it holds nothing but fields
  /// sharing a clock (`WireJSON.syncRequest`; nil for the others, and empty when read
  /// otherwise): already checked JSON that a server may store as it is.
  public var sentFields: [String?] = []

  public init(since: String?, changes: [WireChange], keyID: String? = nil, sharedClocks: Bool = true) {
    self.since = since
    self.changes = changes
    self.keyID = keyID
    self.sharedClocks = sharedClocks
  }

  enum CodingKeys: String, CodingKey {
    case since, changes
    case keyID = "key_id"
    case sharedClocks = "shared_clocks"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    since = try container.decodeIfPresent(String.self, forKey: .since)
    changes = try container.decode([WireChange].self, forKey: .changes)
    keyID = try container.decodeIfPresent(String.self, forKey: .keyID)
    sharedClocks = container.contains(.sharedClocks) ? try container.decode(Bool.self, forKey: .sharedClocks) : false
  }
}

public struct SyncResponse: Codable, Sendable {
  public var changes: [WireChange]
  public var cursor: String
  public var hasMore: Bool
  public var accepted: Int
  /// The account is end-to-end encrypted (absent from older servers: false).
  public var encrypted: Bool
  /// What the server takes in one request (absent from older servers).
  public var limits: SyncLimits?
  /// The server reads fields that share a clock (absent from older servers: false).
  public var sharedClocks: Bool
  /// The answer's size as it arrived: not part of the wire format, set by the client that read it.
  public var receivedBytes = 0

  enum CodingKeys: String, CodingKey {
    case changes, cursor
    case hasMore = "has_more"
    case accepted, encrypted, limits
    case sharedClocks = "shared_clocks"
  }

  public init(
    changes: [WireChange], cursor: String, hasMore: Bool, accepted: Int, encrypted: Bool = false,
    limits: SyncLimits? = nil, sharedClocks: Bool = false
  ) {
    self.changes = changes
    self.cursor = cursor
    self.hasMore = hasMore
    self.accepted = accepted
    self.encrypted = encrypted
    self.limits = limits
    self.sharedClocks = sharedClocks
  }
}

/// A server's bounds on what it is sent: a request body, and one value as it travels (a sealed
/// value is about a third larger than the one sealed). docs/sync-protocol.md, "Limits".
public struct SyncLimits: Codable, Equatable, Sendable {
  public var bodyBytes: Int
  public var valueBytes: Int

  enum CodingKeys: String, CodingKey {
    case bodyBytes = "body_bytes"
    case valueBytes = "value_bytes"
  }

  public init(bodyBytes: Int, valueBytes: Int) {
    self.bodyBytes = bodyBytes
    self.valueBytes = valueBytes
  }

  /// Records one request may push: a bound of the protocol, not stated in answers.
  public static let changesPerRequest = 5000

  /// A server's defaults: 10 MiB a request, and room for a sealed `Replica.maxValueBytes` value.
  public static let standard = SyncLimits(bodyBytes: 10 << 20, valueBytes: Replica.maxValueBytes * 3 / 2)
}

/// Why a change set was refused; the server answers 400 with this text.
public enum ChangeSetError: Error, Equatable, CustomStringConvertible {
  case badDatasetName(String)
  case badFieldName(dataset: String, field: String)
  case unknownDataset(String)
  case badID
  case badClock(String)
  case clockAhead(String)
  /// A value longer than the server takes (`SyncLimits.valueBytes`).
  case valueTooLarge(dataset: String, id: String, field: String, bytes: Int, limit: Int)
  /// A value its dataset's rule refuses (a server that knows the dataset, a restore).
  case invalidValue(dataset: String, id: String, field: String, reason: String)

  /// Room for a sealed id (a 200-byte local id grows to 291 characters).
  public static let maxIDLength = 300

  public var description: String {
    switch self {
    case .badDatasetName(let name):
      return "'\(name.prefix(40))' is not a dataset name (lower-case letters, digits and _, at most 63)"
    case .badFieldName(let dataset, let field):
      return "dataset \(dataset.prefix(40)) has no field '\(field.prefix(40))'"
    case .unknownDataset(let name): return "unknown dataset '\(name.prefix(40))'"
    case .invalidValue(let dataset, let id, let field, let reason):
      return
        "\(dataset.prefix(40)) \(id.prefix(64)): field \(field.prefix(40)) is \(reason)"
    case .badID: return "a record id must be 1 to \(Self.maxIDLength) characters"
    case .badClock(let text):
      return "'\(text.prefix(60))' is not a clock reading like 2026-11-22T10:00:00.000Z-0000-0123456789abcdef"
    case .clockAhead(let text):
      return "the clock reading \(text) is more than an hour ahead of the server; check the device's clock"
    case .valueTooLarge(_, _, let field, let bytes, let limit):
      return
        "a value of field '\(field.prefix(40))' is \(Replica.describe(bytes: bytes)); this server takes at most \(Replica.describe(bytes: limit)) per value"
    }
  }
}

extension WireChange {
  /// Checks what any server can check without knowing the datasets: names, id and clocks; the
  /// field clocks parsed. The server relays datasets it has never heard of (a newer client's), and
  /// each device keeps only what it knows (`validated(now:in:)`).
  public func validated(now: Date, maxSkew: TimeInterval = 3600, maxValueBytes: Int = .max) throws -> [String: (
    value: DatabaseValue, hlc: HLC
  )] {
    try validated(now: now, maxSkew: maxSkew, maxValueBytes: maxValueBytes) { _ in true }
  }

  /// `validated` for a server, which stores the fields as sent: the same checks, nothing kept.
  /// `namesChecked` are names known good at their index (the change before's `fields.keys`: the
  /// changes of a push mostly name the same fields, and a first push names a million).
  public func check(
    now: Date, maxSkew: TimeInterval = 3600, maxValueBytes: Int = .max, namesChecked: [String] = []
  ) throws {
    var clock = LastClock()
    try check(now: now, maxSkew: maxSkew, maxValueBytes: maxValueBytes, namesChecked: namesChecked, clock: &clock)
  }

  /// `check` for the changes of a request one after another, the clock read last kept from one
  /// to the next.
  public func check(
    now: Date, maxSkew: TimeInterval = 3600, maxValueBytes: Int = .max, namesChecked: [String] = [],
    clock: inout LastClock
  ) throws {
    guard Self.isName(dataset) else { throw ChangeSetError.badDatasetName(dataset) }
    try forEachField(
      now: now, maxSkew: maxSkew, maxValueBytes: maxValueBytes, namesChecked: namesChecked, clock: &clock
    ) { _, _, _, _ in }
  }

  /// `validated`, keeping only the fields `keep` names (every field is checked all the same).
  func validated(
    now: Date, maxSkew: TimeInterval = 3600, maxValueBytes: Int = .max, keeping keep: (String) -> Bool
  ) throws
    -> [String: (value: DatabaseValue, hlc: HLC)]
  {
    guard Self.isName(dataset) else { throw ChangeSetError.badDatasetName(dataset) }
    var parsed: [String: (value: DatabaseValue, hlc: HLC)] = [:]
    parsed.reserveCapacity(fields.count)
    var clock = LastClock()
    try forEachField(now: now, maxSkew: maxSkew, maxValueBytes: maxValueBytes, clock: &clock) { name, field, hlc, _ in
      if keep(name) { parsed[name] = (field.value.databaseValue, hlc) }
    }
    return parsed
  }

  /// The change as a device applies it: its dataset among `datasets`, and only the fields that
  /// dataset has, by place (a newer device's extra fields are left to the devices that know
  /// them). The same checks as `validated`, without a dictionary: a first sync reads every field
  /// of every record here.
  public func incoming(now: Date, maxSkew: TimeInterval = 3600, in datasets: [Dataset]) throws -> Replica.Incoming {
    var places = FieldPlaces()
    return try incoming(now: now, maxSkew: maxSkew, in: datasets, places: &places)
  }

  /// `incoming` for the changes of a page one after another, `places` kept from one to the next.
  public func incoming(now: Date, maxSkew: TimeInterval = 3600, in datasets: [Dataset], places: inout FieldPlaces)
    throws -> Replica.Incoming
  {
    guard let known = datasets.named(dataset) else {
      _ = try validated(now: now, maxSkew: maxSkew) { _ in false }
      throw ChangeSetError.unknownDataset(dataset)
    }
    // Made in place: `repeating:` copied the empty slot into each place, 2,000 instructions a
    // record of eleven fields.
    let count = known.fields.count
    var slots = [Replica.Incoming.Field?](unsafeUninitializedCapacity: count) { buffer, initialized in
      for index in 0..<count { (buffer.baseAddress! + index).initialize(to: nil) }
      initialized = count
    }
    var deletion: Replica.Incoming.Field?
    let at = places.places(of: fields.keys, in: known)
    try forEachField(now: now, maxSkew: maxSkew, places: at, clock: &places.clock) { name, field, hlc, place in
      if let place {
        slots[place] = (field.value.databaseValue, hlc)
      } else if name == FieldMerge.deleted {
        deletion = (field.value.databaseValue, hlc)
      }
    }
    return Replica.Incoming(known, id: id, slots: slots, deletion: deletion)
  }

  /// Checks the id, then each field: its name (one with a place in `places`, at its own index,
  /// is a known field's), its clock and its size; hands each on with its clock read and its
  /// place. Inlined, so that a first sync does not call through a closure for each field of
  /// each record.
  @inline(__always)
  private func forEachField(
    now: Date, maxSkew: TimeInterval, maxValueBytes: Int = .max, places: [Int?] = [], namesChecked: [String] = [],
    clock: inout LastClock, _ body: (String, WireField, HLC, Int?) -> Void
  ) throws {
    guard !id.isEmpty, id.utf8.count <= ChangeSetError.maxIDLength else { throw ChangeSetError.badID }
    // The fields of a record written at once share a clock: its text is read once. Kept apart,
    // not as a tuple: binding the tuple for each field retained and released three texts.
    var lastText: String?
    var lastHLC: HLC?
    // Each name and field read where it is: a copy of them (and of the clock) for each field
    // retained and released its texts, for every field of every record of a first sync.
    for index in fields.keys.indices {
      let at = index < places.count ? places[index] : nil
      // account_id is every synced table's local owner column: no device may be sent one.
      let checked = index < namesChecked.count && namesChecked[index] == fields.keys[index]
      guard
        checked || at != nil || fields.keys[index] == FieldMerge.deleted
          || (Self.isName(fields.keys[index]) && fields.keys[index] != "account_id")
      else {
        throw ChangeSetError.badFieldName(dataset: dataset, field: fields.keys[index])
      }
      if lastHLC == nil || lastText != fields.values[index].hlc {
        let text = fields.values[index].hlc
        if let kept = clock.hlc, clock.text == text {
          // Read for a change before: checked against this one's `now`.
          guard kept.date.timeIntervalSince(now) <= maxSkew else { throw ChangeSetError.clockAhead(text) }
          (lastText, lastHLC) = (text, kept)
        } else {
          guard let read = HLC(text) else { throw ChangeSetError.badClock(text) }
          guard read.date.timeIntervalSince(now) <= maxSkew else { throw ChangeSetError.clockAhead(text) }
          (lastText, lastHLC) = (text, read)
          (clock.text, clock.hlc) = (text, read)
        }
      }
      if maxValueBytes < .max, case .string(let text) = fields.values[index].value, text.utf8.count > maxValueBytes {
        throw ChangeSetError.valueTooLarge(
          dataset: dataset, id: id, field: fields.keys[index], bytes: text.utf8.count, limit: maxValueBytes)
      }
      body(fields.keys[index], fields.values[index], lastHLC!, at)
    }
  }

  /// A dataset or field name: lower-case ASCII letters, digits and `_`, starting with a letter.
  static func isName(_ text: String) -> Bool {
    let bytes = text.utf8
    guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), bytes.count <= 63 else {
      return false
    }
    return bytes.allSatisfy {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        || $0 == UInt8(ascii: "_")
    }
  }
}

extension Dataset {
  /// The protocol reserves the name `blob` for content-addressed bytes: their fields travel as
  /// changes, their bytes through `/v1/blobs`.
  public static let blobName = "blob"
  public var isBlob: Bool { name == Self.blobName }
}
