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
  @usableFromInline let writers: [@Sendable (inout Record) -> DatabaseValue]
  @usableFromInline let readers: [@Sendable (inout Record, DatabaseValue) -> Bool]
  @usableFromInline let readRules: [FieldRule?]
  @usableFromInline let faults: [Column.Fault]

  public init(blank: @escaping @Sendable () -> Record, _ columns: [Column]) {
    // Closures, not key paths: a key path into this generic type is made at run time, through
    // the demangler, once per record type and property, and every command pays that at start.
    // One pass, not a map per part: this runs unspecialized, for every kind, in every command.
    var names: [String] = []
    var byName: [String: Int] = [:]
    var writers: [@Sendable (inout Record) -> DatabaseValue] = []
    var readers: [@Sendable (inout Record, DatabaseValue) -> Bool] = []
    var readRules: [FieldRule?] = []
    var faults: [Column.Fault] = []
    for column in columns {
      precondition(byName.updateValue(names.count, forKey: column.name) == nil, "column names must be unique")
      names.append(column.name)
      writers.append(column.write)
      readers.append(column.read)
      readRules.append(column.rule)
      faults.append(column.fault)
    }
    self.blank = blank
    self.columns = columns
    self.names = names
    self.byName = byName
    self.writers = writers
    self.readers = readers
    self.readRules = readRules
    self.faults = faults
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
    public var keyPath: AnyKeyPath { makeKeyPath() }
    @usableFromInline let makeKeyPath: @Sendable () -> AnyKeyPath
    /// Reads the property of a record it is handed in place: one passed by value would be copied
    /// whole to be read at an offset.
    @usableFromInline let write: @Sendable (inout Record) -> DatabaseValue
    /// Sets the property from a stored value; false when the value does not fit it.
    @usableFromInline let read: @Sendable (inout Record, DatabaseValue) -> Bool
    /// What reading a value that does not fit (its type or its rule) does.
    @usableFromInline let fault: Fault

    /// Values an older Vital let in, or another device wrote, which every view must survive.
    public enum Fault: Sendable {
      /// The read fails: the value cannot be of another type (a key, a checked word).
      case fails
      /// The property keeps its blank value: the record is still worth showing.
      case missing
      /// The record is left out: it means nothing without this value.
      case skipsRecord
    }
  }

  /// The columns as a table description takes them, with the table's own (the owning account, a
  /// write stamp) each after the column it names.
  public func tableColumns(adding own: [(after: String, Table.Column)] = []) -> [Table.Column] {
    precondition(own.allSatisfy { byName[$0.after] != nil }, "a table column after one \(Record.self) lacks")
    return columns.flatMap { column in
      [Table.Column(column.name, column.definition)] + own.filter { $0.after == column.name }.map { $0.1 }
    }
  }

  /// The rules of the columns that have one, by name.
  public var rules: [String: FieldRule] {
    Dictionary(uniqueKeysWithValues: columns.compactMap { column in column.rule.map { (column.name, $0) } })
  }

  /// The column a property is stored in.
  public func name(of keyPath: PartialKeyPath<Record>) -> String {
    names[index(of: keyPath)]
  }

  /// The column a property is stored in, by its place.
  func index(of keyPath: PartialKeyPath<Record>) -> Int {
    let wanted = keyPath as AnyKeyPath
    guard let index = columns.firstIndex(where: { ($0.keyPath as AnyKeyPath) == wanted }) else {
      preconditionFailure("\(keyPath) is not a column of \(Record.self)")
    }
    return index
  }

  /// `record`'s values of the selected columns, in their order.
  @inlinable public func values(_ record: Record, _ selection: Selection) -> [DatabaseValue] {
    var record = record
    return selection.indexes.map { writers[$0](&record) }
  }

  /// `record`'s values of the selected columns, by name.
  @inlinable public func fields(_ record: Record, _ selection: Selection) -> [String: DatabaseValue] {
    Dictionary(uniqueKeysWithValues: zip(selection.names, values(record, selection)))
  }

  /// The record a row holds (the row has every column of the shape), or nil when a column
  /// that `skipsRecord` does not fit.
  @inlinable public func read(_ row: Row) throws -> Record? {
    var record = blank()
    for index in names.indices {
      let value = row[names[index]]
      switch faults[index] {
      case .fails:
        if !readers[index](&record, value) {
          throw StorageError.typeMismatch(column: names[index], expected: "a value of its type", sql: nil)
        }
      case .missing:
        if readRules[index]?.fault(value) == nil { _ = readers[index](&record, value) }
      case .skipsRecord:
        guard readRules[index]?.fault(value) == nil, readers[index](&record, value) else { return nil }
      }
    }
    return record
  }

  /// The record a row holds; one that `read` leaves out is a type mismatch.
  @inlinable public func record(_ row: Row) throws -> Record {
    guard let record = try read(row) else {
      throw StorageError.typeMismatch(column: names.joined(separator: ", "), expected: "values that fit", sql: nil)
    }
    return record
  }

  /// The selected fields whose values differ between `old` and `new`: all of them for a record
  /// not stored before. Writing only these lets an edit of another field elsewhere survive.
  public func changes(from old: Record?, to new: Record, _ selection: Selection) -> [String: DatabaseValue] {
    let after = fields(new, selection)
    guard let old else { return after }
    let before = fields(old, selection)
    return after.filter { before[$0.key] != $0.value }
  }
}

extension RecordShape {
  /// The stored value of one property of `record`.
  public func value(_ record: Record, _ keyPath: PartialKeyPath<Record>) -> DatabaseValue {
    var record = record
    return writers[index(of: keyPath)](&record)
  }
}

extension RecordShape {
  /// The columns of these properties, in this order.
  public func selection(of keyPaths: [PartialKeyPath<Record>]) -> Selection {
    selection(keyPaths.map { name(of: $0) })
  }

  /// `record`'s values of these properties, by column name.
  public func fields(_ record: Record, of keyPaths: [PartialKeyPath<Record>]) -> [String: DatabaseValue] {
    fields(record, selection(of: keyPaths))
  }
}
