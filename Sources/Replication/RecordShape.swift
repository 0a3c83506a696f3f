import Foundation
import Storage

/// A kind of record described once: the stored properties of `Record` that are its columns, each
/// with its name, its SQL type and constraints, the rule its values keep, and how it is read and
/// written. The table's columns, the row decoder, the synced dataset's fields and rules, and the
/// names the CSV, FHIR and forms use all come from here; a column added to the shape reaches
/// the table, sync and export with no other edit.
public struct RecordShape<Record: Sendable>: Sendable {
  public let columns: [Column]
  /// A record before any column is read: what reading a row fills in.
  @usableFromInline let blank: @Sendable () -> Record
  @usableFromInline let byName: [String: Int]
  // The columns' parts in flat arrays: a row read or written touches these, not whole columns.
  @usableFromInline let names: [String]
  @usableFromInline let writers: [@Sendable (Record) -> DatabaseValue]
  @usableFromInline let readers: [@Sendable (inout Record, DatabaseValue) -> Bool]
  @usableFromInline let tolerantRules: [FieldRule??]

  public init(blank: @escaping @Sendable () -> Record, _ columns: [Column]) {
    precondition(Set(columns.map(\.name)).count == columns.count, "column names must be unique")
    self.blank = blank
    self.columns = columns
    byName = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.name, $0) })
    names = columns.map(\.name)
    writers = columns.map(\.write)
    readers = columns.map(\.read)
    // For a tolerant column its rule (or none), for a strict one nil.
    tolerantRules = columns.map { $0.tolerant ? .some($0.rule) : nil }
  }

  /// Some of the columns, in a given order, resolved once: a dataset's fields as bulk writes take
  /// them.
  public struct Selection: Sendable {
    public let names: [String]
    @usableFromInline let indexes: [Int]
  }

  public func selection(_ names: [String]) -> Selection {
    Selection(
      names: names,
      indexes: names.map { name in
        guard let index = byName[name] else { preconditionFailure("\(name) is not a column of \(Record.self)") }
        return index
      })
  }

  /// One column: a property of the record, stored under `name`.
  public struct Column: Sendable {
    public let name: String
    /// Type and constraints, as they follow the name in `CREATE TABLE`.
    public let definition: String
    /// What the column's values must keep, beyond its type (`Dataset.rules`).
    public let rule: FieldRule?
    /// The property, to name the column by (`RecordShape.name(of:)`).
    public let keyPath: AnyKeyPath & Sendable
    @usableFromInline let write: @Sendable (Record) -> DatabaseValue
    /// Sets the property from a stored value; false when the value does not fit it.
    @usableFromInline let read: @Sendable (inout Record, DatabaseValue) -> Bool
    /// A value that does not fit is read as missing instead of failing the read (values an
    /// older Vital let in, which every view must survive).
    @usableFromInline let tolerant: Bool
  }

  /// The columns as a table description takes them, with the table's own (the owning account, a
  /// write stamp) each after the column it names.
  public func tableColumns(adding own: [(after: String, Table.Column)] = []) -> [Table.Column] {
    precondition(own.allSatisfy { byName[$0.after] != nil }, "a table column after one \(Record.self) lacks")
    return columns.flatMap { column in
      [Table.Column(column.name, column.definition)] + own.filter { $0.after == column.name }.map(\.1)
    }
  }

  /// The rules of the columns that have one, by name.
  public var rules: [String: FieldRule] {
    Dictionary(uniqueKeysWithValues: columns.compactMap { column in column.rule.map { (column.name, $0) } })
  }

  /// The column a property is stored in.
  public func name(of keyPath: PartialKeyPath<Record>) -> String {
    let wanted = keyPath as AnyKeyPath
    guard let column = columns.first(where: { ($0.keyPath as AnyKeyPath) == wanted }) else {
      preconditionFailure("\(keyPath) is not a column of \(Record.self)")
    }
    return column.name
  }

  /// `record`'s values of the selected columns, in their order.
  @inlinable public func values(_ record: Record, _ selection: Selection) -> [DatabaseValue] {
    selection.indexes.map { writers[$0](record) }
  }

  /// `record`'s values of the selected columns, by name.
  @inlinable public func fields(_ record: Record, _ selection: Selection) -> [String: DatabaseValue] {
    Dictionary(uniqueKeysWithValues: zip(selection.names, values(record, selection)))
  }

  /// The record a row holds; the row has every column of the shape.
  @inlinable public func record(_ row: Row) throws -> Record {
    var record = blank()
    for index in names.indices {
      let value = row[names[index]]
      if let rule = tolerantRules[index] {
        // What fails its rule stays missing.
        if rule?.fault(value) == nil { _ = readers[index](&record, value) }
      } else if !readers[index](&record, value) {
        throw StorageError.typeMismatch(column: names[index], expected: "a value of its type", sql: nil)
      }
    }
    return record
  }
}

// Inlinable, so that each column's closures are specialized where the shape is written (the
// feature's module): unspecialized, every read and write looked up generic metadata at run time.
extension RecordShape.Column {
  @inlinable init<Value>(
    _ name: String, _ definition: String, rule: FieldRule?, tolerant: Bool = false,
    _ keyPath: WritableKeyPath<Record, Value> & Sendable,
    write: @escaping @Sendable (Value) -> DatabaseValue, read: @escaping @Sendable (DatabaseValue) -> Value?
  ) {
    self.name = name
    self.definition = definition
    self.rule = rule
    self.keyPath = keyPath
    self.tolerant = tolerant
    self.write = { write($0[keyPath: keyPath]) }
    self.read = { record, value in
      // nil: the value does not fit the property (for an optional one, NULL reads as .some(nil)).
      guard let read = read(value) else { return false }
      record[keyPath: keyPath] = read
      return true
    }
  }

  /// Text that is always there (`TEXT NOT NULL`, or with `constraints` such as a key's).
  @inlinable public static func text(
    _ name: String, _ keyPath: WritableKeyPath<Record, String> & Sendable, _ constraints: String = "NOT NULL",
    rule: FieldRule? = nil
  ) -> Self {
    .init(
      name, "TEXT \(constraints)", rule: rule, keyPath, write: { .text($0) }, read: { String.fromDatabaseValue($0) })
  }

  /// Text that may be missing.
  @inlinable public static func text(
    _ name: String, _ keyPath: WritableKeyPath<Record, String?> & Sendable, rule: FieldRule? = nil
  )
    -> Self
  {
    .init(name, "TEXT", rule: rule, keyPath, write: { $0.databaseValue }, read: { String?.fromDatabaseValue($0) })
  }

  /// One of an enumeration's words, always there: `TEXT NOT NULL CHECK (name IN (...))`, and the
  /// rule that says the same.
  @inlinable public static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<Record, Choice> & Sendable
  ) -> Self where Choice.RawValue == String {
    let words = Choice.allCases.map(\.rawValue)
    let list = words.map { "'\($0)'" }.joined(separator: ", ")
    return .init(
      name, "TEXT NOT NULL CHECK (\(Table.quoted(name)) IN (\(list)))", rule: .oneOf(words), keyPath,
      write: { .text($0.rawValue) }, read: { value in String.fromDatabaseValue(value).flatMap(Choice.init(rawValue:)) })
  }

  /// An instant that may be missing, stored to the whole second (an exported and re-imported row
  /// is then unchanged).
  @inlinable public static func instant(
    _ name: String, _ keyPath: WritableKeyPath<Record, Date?> & Sendable, years: ClosedRange<Int>
  ) -> Self {
    .init(
      name, "TEXT", rule: .instant(years: years), keyPath,
      write: { $0.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }.databaseValue },
      read: { Date?.fromDatabaseValue($0) })
  }

  /// A number that may be missing, in `range`; one out of it reads as missing.
  @inlinable public static func number(
    _ name: String, _ keyPath: WritableKeyPath<Record, Double?> & Sendable, _ range: ClosedRange<Double>
  ) -> Self {
    .init(
      name, "REAL", rule: .number(range), tolerant: true, keyPath, write: { $0.databaseValue },
      read: { Double?.fromDatabaseValue($0) })
  }

  /// A whole number that may be missing, in `range`; one out of it reads as missing.
  @inlinable public static func integer(
    _ name: String, _ keyPath: WritableKeyPath<Record, Int?> & Sendable, _ range: ClosedRange<Int>
  ) -> Self {
    .init(
      name, "INTEGER", rule: .integer(Int64(range.lowerBound)...Int64(range.upperBound)), tolerant: true, keyPath,
      write: { $0.databaseValue }, read: { Int?.fromDatabaseValue($0) })
  }
}
