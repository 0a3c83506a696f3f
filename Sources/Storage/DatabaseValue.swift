import Foundation

/// One SQLite value, as stored.
public enum DatabaseValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)

  var typeName: String {
    switch self {
    case .null: "NULL"
    case .integer: "INTEGER"
    case .real: "REAL"
    case .text: "TEXT"
    case .blob: "BLOB"
    }
  }
}

/// A Swift type that can be bound to a statement and read back from a column.
public protocol DatabaseValueConvertible {
  var databaseValue: DatabaseValue { get }
  /// Returns nil when the stored value cannot represent this type.
  static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { self }
  public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Int64: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(self) }
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
    if case .integer(let v) = value { return v }
    return nil
  }
}

extension Int: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
    if case .integer(let v) = value { return Int(exactly: v) }
    return nil
  }
}

extension Double: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .real(self) }
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
    switch value {
    case .real(let v): return v
    case .integer(let v): return Double(v)
    default: return nil
    }
  }
}

extension Bool: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
    if case .integer(let v) = value, v == 0 || v == 1 { return v == 1 }
    return nil
  }
}

extension String: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .text(self) }
  public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
    if case .text(let v) = value { return v }
    return nil
  }
}

extension Data: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .blob(self) }
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
    if case .blob(let v) = value { return v }
    return nil
  }
}

/// Dates are stored as ISO 8601 text in UTC with milliseconds, so they sort as text.
extension Date: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .text(ISO8601.string(from: self)) }
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
    if case .text(let v) = value { return ISO8601.date(from: v) }
    return nil
  }
}

extension UUID: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .text(uuidString.lowercased()) }
  public static func fromDatabaseValue(_ value: DatabaseValue) -> UUID? {
    if case .text(let v) = value { return UUID(uuidString: v) }
    return nil
  }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  // Inlinable so that a caller knowing the wrapped type calls its conversion directly: through
  // the generic getter, each optional column of a row written cost an import a boxed copy of
  // the value (a tenth of reading a CSV's rows into records).
  @inlinable public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
  @inlinable public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
    if case .null = value { return .some(nil) }
    return Wrapped.fromDatabaseValue(value).map { .some($0) }
  }
}
