import Foundation
import Storage

/// A hybrid logical clock reading: wall time in milliseconds, a counter for events in the same
/// millisecond, and the node (device) id. Its text form sorts like the clock:
/// `2026-11-22T10:00:00.000Z-0000-0123456789abcdef`.
public struct HLC: Comparable, Hashable, Sendable, CustomStringConvertible {
  public let milliseconds: Int64
  public let counter: Int
  /// The canonical text, made once: sync writes it for every field it stores. The node is its
  /// end, not a second text: a clock goes with every field a pull reads and writes, and a copy
  /// of one retained and released two texts (the node, at 16 characters, one too long to be
  /// kept inline).
  public let description: String
  /// Where the node begins in `description`, in UTF-8 bytes.
  private let nodeStart: Int

  /// The node (device) id.
  public var node: String { String(decoding: description.utf8.dropFirst(nodeStart), as: UTF8.self) }

  public init(milliseconds: Int64, counter: Int, node: String) {
    let hex = String(counter, radix: 16)
    let text =
      ISO8601.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000)) + "-"
      + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "-" + node
    self.init(milliseconds: milliseconds, counter: counter, nodeStart: text.utf8.count - node.utf8.count, text: text)
  }

  private init(milliseconds: Int64, counter: Int, nodeStart: Int, text: String) {
    self.milliseconds = milliseconds
    self.counter = counter
    self.nodeStart = nodeStart
    self.description = text
  }

  /// The text is the clock's alone (one canonical form), so equal clocks have equal texts and
  /// the node is compared there.
  public static func == (a: HLC, b: HLC) -> Bool {
    a.milliseconds == b.milliseconds && a.counter == b.counter && a.description == b.description
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(description) }

  /// Reads the canonical text form and nothing else, so equal clocks always have equal text
  /// (the server compares clock text directly). Parsed byte by byte: sync reads one per field.
  public init?(_ text: String) {
    var text = text
    guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
    self.init(milliseconds: parsed.milliseconds, counter: parsed.counter, nodeStart: Self.textNodeStart, text: text)
  }

  /// Where the node begins in the canonical text read from the wire.
  private static let textNodeStart = 30

  private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> (milliseconds: Int64, counter: Int)? {
    // YYYY-MM-DDTHH:MM:SS.mmmZ-cccc-nnnnnnnnnnnnnnnn
    guard b.count == 46, b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58, b[19] == 46, b[23] == 90,
      b[24] == 45, b[29] == 45
    else { return nil }
    func number(_ from: Int, _ count: Int) -> Int? {
      var value = 0
      for i in from..<from + count {
        let d = Int(b[i]) &- 48
        guard d >= 0 && d <= 9 else { return nil }
        value = value * 10 + d
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2), let second = number(17, 2), let ms = number(20, 3),
      (1...12).contains(month), day >= 1, day <= ISO8601.daysIn(month: month, year: year), hour < 24, minute < 60,
      second < 60
    else { return nil }
    var counter = 0
    for i in 25..<29 {
      guard isLowerHex(b[i]) else { return nil }
      counter = counter * 16 + hexValue(b[i])
    }
    for i in textNodeStart..<46 where !isLowerHex(b[i]) { return nil }
    let days = ISO8601.days(fromCivil: Int64(year), month, day)
    let milliseconds = (days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000 + Int64(ms)
    return (milliseconds, counter)
  }

  private static func hexValue(_ b: UInt8) -> Int { b <= 57 ? Int(b) - 48 : Int(b) - 87 }

  private static func isLowerHex(_ b: UInt8) -> Bool { (48...57).contains(b) || (97...102).contains(b) }

  public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

  public static func < (a: HLC, b: HLC) -> Bool {
    if a.milliseconds != b.milliseconds { return a.milliseconds < b.milliseconds }
    if a.counter != b.counter { return a.counter < b.counter }
    // The same time and counter write the same text before the node: the texts order as the nodes.
    return a.description < b.description
  }

  /// The next reading after `last` at wall time `now` (Kulkarni et al., "Logical Physical Clocks").
  public static func next(after last: HLC?, now: Date, node: String) -> HLC {
    let wall = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
    guard let last, last.milliseconds >= wall else { return HLC(milliseconds: wall, counter: 0, node: node) }
    if last.counter >= 0xFFFF { return HLC(milliseconds: last.milliseconds + 1, counter: 0, node: node) }
    return HLC(milliseconds: last.milliseconds, counter: last.counter + 1, node: node)
  }
}

/// The merge rule, the same on every device and on the server: per field, the higher clock
/// wins. Node ids are part of the clock, so two different writes never tie; the same write
/// seen twice compares equal and changes nothing.
public enum FieldMerge {
  /// The name of the field that says whether a record exists: 1 deleted, 2 withdrawn (an
  /// import taken back by an undo), 0 restored (a delete taken back). It merges like any field.
  /// A deleted record stays deleted whatever edits arrive, earlier or later, so all replicas
  /// agree without asking which edit "came after" a delete they had not seen; only a newer
  /// restore brings it back.
  public static let deleted = "_deleted"
  /// Local clock keys for the other two values of `_deleted` (the clocks text keeps no values).
  public static let withdrawn = "_withdrawn"
  public static let restored = "_restored"

  /// The value of `_deleted`.
  public enum Deletion: Sendable, Equatable {
    case deleted, withdrawn, restored

    /// Reads a received value: 0 restores, 2 withdraws, anything else deletes.
    public init(_ value: DatabaseValue) {
      switch value {
      case .integer(0): self = .restored
      case .real(let number) where number == 0: self = .restored
      case .integer(2): self = .withdrawn
      case .real(let number) where number == 2: self = .withdrawn
      default: self = .deleted
      }
    }

    public var value: DatabaseValue {
      switch self {
      case .deleted: .integer(1)
      case .withdrawn: .integer(2)
      case .restored: .integer(0)
      }
    }

    var clockKey: String {
      switch self {
      case .deleted: FieldMerge.deleted
      case .withdrawn: FieldMerge.withdrawn
      case .restored: FieldMerge.restored
      }
    }
  }

  /// The newest value of `_deleted` held in `clocks`, if any.
  public static func deletion(in clocks: [String: HLC]) -> (kind: Deletion, hlc: HLC)? {
    let marks: [(Deletion, HLC)] = [Deletion.deleted, .withdrawn, .restored].compactMap { kind in
      clocks[kind.clockKey].map { (kind, $0) }
    }
    return marks.max { $0.1 < $1.1 }.map { (kind: $0.0, hlc: $0.1) }
  }

  /// Whether a field's change wins over the one held: its clock is higher, or none is held. The
  /// one rule every device and the server apply (a clock's canonical text sorts like the clock,
  /// so the server compares texts).
  @inlinable
  public static func wins<Clock: Comparable>(_ incoming: Clock, over current: Clock?) -> Bool {
    guard let current else { return true }
    return incoming > current
  }

  /// `incoming` merged into `current` field by field, each taken when it `wins`; nil when
  /// nothing changed. The server keeps records so; a device merges into its tables by the same
  /// rule, with deletion on top (`Replica.apply`).
  /// Inlinable, so that a server's merge of a push is made for its own field type, not through
  /// the protocol for each call.
  @inlinable
  public static func merge<Fields: FieldMap, Clock: Comparable>(
    _ current: Fields, _ incoming: Fields, clock: (Fields.Field) -> Clock
  ) -> Fields? {
    // A new record (most of a first push) is what came, as it came.
    if current.isEmpty { return incoming.isEmpty ? nil : incoming }
    var merged = current
    var changed = false
    for (name, field) in incoming where wins(clock(field), over: merged[name].map(clock)) {
      merged[name] = field
      changed = true
    }
    return changed ? merged : nil
  }
}

/// Fields by name, as `FieldMerge.merge` takes them: a dictionary, or a change's fields as they
/// travel (in name order).
public protocol FieldMap: Sequence where Element == (key: String, value: Field) {
  associatedtype Field
  var isEmpty: Bool { get }
  subscript(name: String) -> Field? { get set }
}

extension Dictionary: FieldMap where Key == String {
  public typealias Field = Value
}
