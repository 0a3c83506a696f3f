import Foundation

/// A hybrid logical clock reading: wall time in milliseconds, a counter for events in the same
/// millisecond, and the node (device) id. Its text form sorts like the clock:
/// `2026-11-22T10:00:00.000Z-0000-0123456789abcdef`.
public struct HLC: Comparable, Hashable, Sendable, CustomStringConvertible {
  public let milliseconds: Int64
  public let counter: Int
  public let node: String

  public init(milliseconds: Int64, counter: Int, node: String) {
    self.milliseconds = milliseconds
    self.counter = counter
    self.node = node
  }

  public init?(_ text: String) {
    // 24 characters of time, "-", 4 hex digits, "-", 16 hex digits.
    let bytes = Array(text.utf8)
    guard bytes.count == 46, bytes[24] == 45, bytes[29] == 45 else { return nil }
    let time = String(decoding: bytes[0..<24], as: UTF8.self)
    guard time.hasSuffix("Z"), let date = ISO8601.date(from: time),
      let counter = Int(String(decoding: bytes[25..<29], as: UTF8.self), radix: 16),
      bytes[25..<29].allSatisfy(Self.isLowerHex), bytes[30...].allSatisfy(Self.isLowerHex)
    else { return nil }
    let ms = Int64((date.timeIntervalSince1970 * 1000).rounded())
    // Only the canonical spelling is accepted, so equal clocks have equal text.
    guard ISO8601.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)) == time else { return nil }
    self.init(milliseconds: ms, counter: counter, node: String(decoding: bytes[30...], as: UTF8.self))
  }

  private static func isLowerHex(_ b: UInt8) -> Bool { (48...57).contains(b) || (97...102).contains(b) }

  public var description: String {
    let hex = String(counter, radix: 16)
    return ISO8601.string(from: date) + "-" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "-" + node
  }

  public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

  public static func < (a: HLC, b: HLC) -> Bool {
    (a.milliseconds, a.counter, a.node) < (b.milliseconds, b.counter, b.node)
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
  /// The name of the field that marks a record deleted. A deleted record stays deleted: a
  /// tombstone wins over every edit, earlier or later, so all replicas agree without asking
  /// which edit "came after" a delete they had not seen.
  public static let deleted = "_deleted"

  public static func wins(_ incoming: HLC, over current: HLC?) -> Bool {
    guard let current else { return true }
    return incoming > current
  }
}
