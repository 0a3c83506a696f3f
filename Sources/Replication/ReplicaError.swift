import Foundation
import Storage

/// What a synced write refuses before it touches anything.
public enum ReplicaError: Error, Equatable, CustomStringConvertible {
  /// A value larger than `Replica.maxValueBytes`: every device and the server would have to
  /// carry it in one request.
  case valueTooLarge(dataset: String, field: String, bytes: Int)
  /// A value its dataset's rules refuse (`Dataset.fault`): nothing was written.
  case invalid(dataset: String, id: String, field: String, reason: String)

  public var description: String {
    switch self {
    case .valueTooLarge(let dataset, let field, let bytes):
      let size = Replica.describe(bytes: bytes)
      return
        "the \(field.replacingOccurrences(of: "_", with: " ")) of this \(dataset.replacingOccurrences(of: "_", with: " ")) would hold \(size); a value holds at most \(Replica.describe(bytes: Replica.maxValueBytes)): shorten it (nothing was written)"
    case .invalid(let dataset, let id, let field, let reason):
      let kind = dataset.replacingOccurrences(of: "_", with: " ")
      return "\(kind) \(id.prefix(64)): \(field) is \(reason); nothing was written"
    }
  }
}

extension Replica {
  /// The most one synced value may hold, in bytes (UTF-8 text or a blob field). Larger data
  /// (an avatar's bytes) travels on its own, as a blob. docs/sync-protocol.md, "Limits".
  public static let maxValueBytes = 1 << 20

  /// The size of `value` as it is stored and sent: UTF-8 bytes of text, bytes of a blob, 8 for numbers.
  public static func byteCount(of value: DatabaseValue) -> Int {
    switch value {
    case .text(let text): return text.utf8.count
    case .blob(let data): return data.count
    case .null: return 0
    default: return 8
    }
  }

  /// Throws `valueTooLarge` for the first value over the limit.
  static func checkSizes(_ dataset: Dataset, _ fields: some Sequence<(String, DatabaseValue)>) throws {
    for (field, value) in fields where byteCount(of: value) > maxValueBytes {
      throw ReplicaError.valueTooLarge(dataset: dataset.name, field: field, bytes: byteCount(of: value))
    }
  }

  /// `1.0 MiB`, `40 KiB`, `512 bytes`.
  public static func describe(bytes: Int) -> String {
    if bytes >= 1 << 20 {
      let mib = Double(bytes) / Double(1 << 20)
      return mib == mib.rounded() ? "\(Int(mib)) MiB" : String(format: "%.1f MiB", mib)
    }
    if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}
