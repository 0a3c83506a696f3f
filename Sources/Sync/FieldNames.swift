import Core
import Foundation

/// The field names of the record read before, kept for the next (`JSONScanner.change`): the
/// records of a page or a push name the same fields in the same order, so each name is then
/// read without making a String, and placed without comparing it with the names before it.
public struct FieldNames {
  var names: [String] = []
  /// Whether each name sorts after the one before it (the first: true). Kept true to `names`:
  /// a name replaced is compared with both of its neighbours.
  var sortsAfterPrevious: [Bool] = []
  /// The clock read last: the records of an import all carry one.
  var clock = JSONScanner.Repeated()

  public init() {}

  /// The name at `position` of this record: the one there before itself when `key` is its
  /// bytes, or a new one kept in its place.
  mutating func name(_ key: UnsafeBufferPointer<UInt8>, at position: Int) -> String {
    if position < names.count {
      let same = names[position].withUTF8 { text in
        text.count == key.count && (key.isEmpty || memcmp(text.baseAddress!, key.baseAddress!, key.count) == 0)
      }
      if same { return names[position] }
    }
    let name = String(decoding: key, as: UTF8.self)
    if position < names.count {
      names[position] = name
      sortsAfterPrevious[position] = position == 0 || names[position - 1] < name
    } else {
      names.append(name)
      sortsAfterPrevious.append(position == 0 || names[position - 1] < name)
    }
    if position + 1 < names.count { sortsAfterPrevious[position + 1] = name < names[position + 1] }
    return name
  }
}
