import Foundation
import Storage

// Inlinable, so that each column's closures are specialized where the shape is written (the
// feature's module): unspecialized, every read and write looked up generic metadata at run time.
extension RecordShape.Column {
  /// A column of any kind: how its property is written to a stored value and read from one (nil
  /// when the value does not fit). The kinds below, and a feature's own, are made with this.
  @inlinable public init<Value>(
    _ name: String, _ definition: String, rule: FieldRule?, onFault fault: Fault = .fails,
    _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Value>,
    write: @escaping @Sendable (Value) -> DatabaseValue, read: @escaping @Sendable (DatabaseValue) -> Value?
  ) {
    self.name = name
    self.definition = definition
    self.rule = rule
    self.fault = fault
    // The key path is made the first time it is needed (a row read or written, a column named by
    // its property), not here: each one is built at run time, and every command describes every
    // kind of record when it starts.
    let makeKeyPath: @Sendable () -> AnyKeyPath = { keyPath() }
    let property = RecordShape<Record>.Property(makeKeyPath)
    self.makeKeyPath = makeKeyPath
    // A stored property is reached at its offset in the record: applying a key path looked up
    // generic metadata on every call, and bulk imports and exports make millions of them. A
    // computed property (no offset) goes through its key path. The record comes in place
    // (inout): taking the bytes of one passed by value copied the whole record for every column
    // written, 2 % of a bulk import's instructions.
    self.write = { record in
      let offset = property.offset
      guard offset >= 0 else { return write(record[keyPath: keyPath()]) }
      return withUnsafeBytes(of: &record) { write($0.load(fromByteOffset: offset, as: Value.self)) }
    }
    self.read = { record, value in
      // nil: the value does not fit the property (for an optional one, NULL reads as .some(nil)).
      guard let read = read(value) else { return false }
      let offset = property.offset
      guard offset >= 0 else {
        record[keyPath: keyPath()] = read
        return true
      }
      withUnsafeMutableBytes(of: &record) { bytes in
        (bytes.baseAddress! + offset).assumingMemoryBound(to: Value.self).pointee = read
      }
      return true
    }
  }

  /// Text that is always there (`TEXT NOT NULL`, or with `constraints` such as a key's).
  @inlinable public static func text(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, String>,
    _ constraints: String = "NOT NULL",
    rule: FieldRule? = nil
  ) -> Self {
    .init(
      name, "TEXT \(constraints)", rule: rule, keyPath(), write: { .text($0) }, read: { String.fromDatabaseValue($0) })
  }

  /// Text that may be missing.
  @inlinable public static func text(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, String?>,
    rule: FieldRule? = nil,
    onFault fault: Fault = .fails
  ) -> Self {
    .init(
      name, "TEXT", rule: rule, onFault: fault, keyPath(), write: { $0.databaseValue },
      read: { String?.fromDatabaseValue($0) })
  }

  /// One of an enumeration's words, always there: `TEXT NOT NULL CHECK (name IN (...))`, and the
  /// rule that says the same.
  @inlinable public static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Choice>,
    among stored: [Choice]? = nil,
    onFault fault: Fault = .fails, checked: Bool = true
  ) -> Self where Choice.RawValue == String {
    // `among`: the words a record may be stored with, of all a value may take.
    let words = (stored ?? Array(Choice.allCases)).map { $0.rawValue }
    // Unchecked: a kind whose words grew after its table was made holds them by rule alone.
    let check = checked ? " CHECK (\(Self.oneOf(name, words)))" : ""
    return .init(
      name, "TEXT NOT NULL" + check, rule: .oneOf(words),
      onFault: fault, keyPath(),
      write: { .text($0.rawValue) }, read: { value in String.fromDatabaseValue(value).flatMap(Choice.init(rawValue:)) })
  }

  /// An instant that may be missing, stored to the whole second (an exported and re-imported row
  /// is then unchanged).
  @inlinable public static func instant(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Date?>,
    years: ClosedRange<Int>
  ) -> Self {
    .init(
      name, "TEXT", rule: .instant(years: years), keyPath(),
      write: { $0.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }.databaseValue },
      read: { Date?.fromDatabaseValue($0) })
  }

  /// A number that may be missing, in `range`; one out of it reads as missing.
  @inlinable public static func number(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Double?>,
    _ range: ClosedRange<Double>
  ) -> Self {
    .init(
      name, "REAL", rule: .number(range), onFault: .missing, keyPath(), write: { $0.databaseValue },
      read: { Double?.fromDatabaseValue($0) })
  }

  /// A whole number that may be missing, in `range`; one out of it reads as missing.
  @inlinable public static func integer(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Int?>,
    _ range: ClosedRange<Int>
  ) -> Self {
    .init(
      name, "INTEGER", rule: .integer(Int64(range.lowerBound)...Int64(range.upperBound)), onFault: .missing, keyPath(),
      write: { $0.databaseValue }, read: { Int?.fromDatabaseValue($0) })
  }
}

extension RecordShape.Column {
  /// Text that may be missing, with constraints after `TEXT` (a reference, a check).
  @inlinable public static func text(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, String?>,
    _ constraints: String,
    rule: FieldRule? = nil, onFault fault: Fault = .fails
  ) -> Self {
    .init(
      name, "TEXT \(constraints)", rule: rule, onFault: fault, keyPath(), write: { $0.databaseValue },
      read: { String?.fromDatabaseValue($0) })
  }

  /// One of an enumeration's words that may be missing: `TEXT CHECK (name IN (...))`; a word
  /// this Vital does not know reads as missing.
  @inlinable public static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Choice?>
  ) -> Self where Choice.RawValue == String {
    let words = Choice.allCases.map { $0.rawValue }
    return .init(
      name, "TEXT CHECK (\(Self.oneOf(name, words)))", rule: .oneOf(words), onFault: .missing,
      keyPath(), write: { $0.map { .text($0.rawValue) } ?? .null },
      read: { value in value == .null ? .some(nil) : String.fromDatabaseValue(value).flatMap(Choice.init(rawValue:)) })
  }

  /// One of an enumeration's words, always there, `preset` when a row is written without it; one
  /// this Vital does not know reads as `preset`.
  @inlinable public static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Choice>, preset: Choice
  ) -> Self where Choice.RawValue == String {
    let words = Choice.allCases.map { $0.rawValue }
    return .init(
      name, "TEXT NOT NULL DEFAULT '\(preset.rawValue)' CHECK (\(Self.oneOf(name, words)))",
      rule: .oneOf(words), onFault: .missing, keyPath(), write: { .text($0.rawValue) },
      read: { value in String.fromDatabaseValue(value).flatMap(Choice.init(rawValue:)) })
  }

  /// An instant that is always there, stored as Vital stores instants (ISO 8601, UTC).
  @inlinable public static func instant(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Date>,
    years: ClosedRange<Int>,
    onFault fault: Fault = .fails
  ) -> Self {
    .init(
      name, "TEXT NOT NULL", rule: .instant(years: years), onFault: fault, keyPath(), write: { $0.databaseValue },
      read: { Date.fromDatabaseValue($0) })
  }

  /// An instant that may be missing, stored as it is (not rounded).
  @inlinable public static func instant(
    _ name: String, exact keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Date?>,
    years: ClosedRange<Int>
  ) -> Self {
    .init(
      name, "TEXT", rule: .instant(years: years), onFault: .missing, keyPath(), write: { $0.databaseValue },
      read: { Date?.fromDatabaseValue($0) })
  }

  /// A number that is always there (`REAL NOT NULL`, then `constraints`).
  @inlinable public static func real(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Double>,
    _ constraints: String = "",
    rule: FieldRule?, onFault fault: Fault = .fails
  ) -> Self {
    .init(
      name, "REAL NOT NULL" + (constraints.isEmpty ? "" : " \(constraints)"), rule: rule, onFault: fault, keyPath(),
      write: { .real($0) }, read: { Double.fromDatabaseValue($0) })
  }

  /// A number that may be missing, in `range`, with constraints after `REAL`; one out of it reads
  /// as missing.
  @inlinable public static func number(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Double?>,
    _ range: ClosedRange<Double>,
    _ constraints: String
  ) -> Self {
    .init(
      name, "REAL \(constraints)", rule: .number(range), onFault: .missing, keyPath(), write: { $0.databaseValue },
      read: { Double?.fromDatabaseValue($0) })
  }

  /// Yes or no, stored as 1 or 0 (`INTEGER NOT NULL`, 0 when a row is written without it unless
  /// `required`), or as 1 or NULL when `nullWhenNo` (a column added later, which older rows lack).
  @inlinable public static func flag(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Bool>,
    required: Bool = false,
    nullWhenNo: Bool = false
  ) -> Self {
    let definition =
      nullWhenNo
      ? "INTEGER" : "INTEGER NOT NULL\(required ? "" : " DEFAULT 0") CHECK (\(Table.quoted(name)) IN (0, 1))"
    return .init(
      name, definition, rule: .flag, onFault: .missing, keyPath(),
      write: { $0 ? .integer(1) : nullWhenNo ? .null : .integer(0) },
      read: { value in
        switch value {
        case .integer(let n): n == 1
        case .null: false
        default: nil
        }
      })
  }

  /// JSON text, of a value coded by `Codable`; text that does not decode reads as `blank`'s.
  @inlinable public static func json<Value: Codable & Sendable>(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Value>, required: Bool,
    empty: @escaping @Sendable (Value) -> Bool = { _ in false }
  ) -> Self {
    .init(
      name, required ? "TEXT NOT NULL" : "TEXT", rule: .json, onFault: .missing, keyPath(),
      write: { value in empty(value) ? .null : .text(JSONCoding.text(value)) },
      read: { value in String.fromDatabaseValue(value).flatMap(JSONCoding.value) })
  }

  /// A value whose type varies by row (`ANY`).
  @inlinable public static func any(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, DatabaseValue>,
    rule: FieldRule?
  ) -> Self {
    .init(name, "ANY", rule: rule, onFault: .missing, keyPath(), write: { $0 }, read: { $0 })
  }

  @usableFromInline static func list(_ words: [String]) -> String { words.map { "'\($0)'" }.joined(separator: ", ") }

  /// The condition that column `name` holds one of `words`. SQLite (3.40, Debian's) checks an
  /// `IN` list of more than two values against a table it builds again for every row written:
  /// the donation table's two such checks doubled the time its rows took to insert (an import,
  /// a first sync). The same condition written as comparisons costs next to nothing.
  @usableFromInline static func oneOf(_ name: String, _ words: [String]) -> String {
    let column = Table.quoted(name)
    guard words.count > 2 else { return "\(column) IN (\(list(words)))" }
    return words.map { "\(column) = '\($0)'" }.joined(separator: " OR ")
  }
}

/// How a JSON column's value is written: compact, keys sorted (so the same value is the same
/// text on every device, and an unchanged one is not sent again), slashes as they are.
public enum JSONCoding {
  public static func text<Value: Encodable>(_ value: Value) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
  }

  /// The value the text holds; nil when it does not decode (a newer device's format).
  public static func value<Value: Decodable>(_ text: String) -> Value? {
    try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
  }
}

extension RecordShape.Column {
  /// A column written from a property the record works out from others (a note's id is its
  /// day): stored and synced like any, never read back.
  @inlinable public static func derived(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> KeyPath<Record, String>,
    _ constraints: String = "NOT NULL"
  ) -> Self {
    .init(name, "TEXT \(constraints)", rule: nil, derived: keyPath())
  }

  @inlinable init(
    _ name: String, _ definition: String, rule: FieldRule?,
    derived keyPath: @autoclosure @escaping @Sendable () -> KeyPath<Record, String>
  ) {
    self.name = name
    self.definition = definition
    self.rule = rule
    self.makeKeyPath = { keyPath() }
    self.fault = .fails
    self.write = { record in .text(record[keyPath: keyPath()]) }
    self.read = { _, _ in true }
  }
}

extension RecordShape.Column {
  /// A duration that may be missing, stored as whole seconds in `range`; one out of it reads as
  /// missing.
  @inlinable public static func seconds(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, TimeInterval?>,
    _ range: ClosedRange<Int>
  ) -> Self {
    .init(
      name, "INTEGER", rule: .integer(Int64(range.lowerBound)...Int64(range.upperBound)), onFault: .missing, keyPath(),
      write: { $0.map { Int($0) }.databaseValue },
      read: { value in Int?.fromDatabaseValue(value).map { $0.map(TimeInterval.init) } })
  }

  /// Text coded by the feature (a schedule, a list), NULL when `encode` gives nil; text that
  /// does not decode reads as missing.
  @inlinable public static func coded<Value>(
    _ name: String, _ keyPath: @autoclosure @escaping @Sendable () -> WritableKeyPath<Record, Value>,
    _ constraints: String = "",
    rule: FieldRule?, encode: @escaping @Sendable (Value) -> String?,
    decode: @escaping @Sendable (String?) -> Value?
  ) -> Self {
    .init(
      name, constraints.isEmpty ? "TEXT" : "TEXT \(constraints)", rule: rule, onFault: .missing, keyPath(),
      write: { encode($0).databaseValue },
      read: { value in value == .null ? decode(nil) : String.fromDatabaseValue(value).flatMap(decode) })
  }
}
