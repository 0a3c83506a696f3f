import Foundation

/// One cell of a backup row, typed as its column says.
public enum BackupValue: Sendable, Equatable {
  case text(String)
  case int(Int64)
  case bool(Bool)
  case date(Date)
  case bytes(Data)
  case null

  public var text: String? { if case .text(let value) = self { value } else { nil } }
  public var int: Int64? { if case .int(let value) = self { value } else { nil } }
  public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
  public var date: Date? { if case .date(let value) = self { value } else { nil } }
  public var bytes: Data? { if case .bytes(let value) = self { value } else { nil } }
}
