import Foundation
import Storage

/// The order SQLite keeps text keys in (by their bytes), worked out for an import's new records:
/// inserted in it, each record's keys land on the page the one before did, instead of a random
/// page of a table larger than the cache (ids are random UUIDs). Each piece of a file is sorted
/// on its own thread as it is read; the writer only merges them.
enum IDOrder {
  /// A record's place in its piece, and the first eight bytes of its id read as one number:
  /// comparing those, not the ids as Strings, is what makes the sort quick.
  struct Key: Sendable {
    let prefix: UInt64
    let index: Int32
  }

  /// The key of the record at `index` whose id is `id`.
  static func key(_ id: String, at index: Int) -> Key {
    var id = id
    let prefix = id.withUTF8 { bytes in
      var prefix: UInt64 = 0
      for i in 0..<8 { prefix = prefix << 8 | UInt64(i < bytes.count ? bytes[i] : 0) }
      return prefix
    }
    return Key(prefix: prefix, index: Int32(index))
  }

  /// `keys` sorted by their records' ids; `id` gives the id at a place, asked only of ids whose
  /// first eight bytes are the same.
  static func sorted(_ keys: consuming [Key], id: (Int) -> String) -> [Key] {
    keys.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : TextOrder.less(id(Int($0.index)), id(Int($1.index))) }
    return keys
  }

  /// Calls `body(piece, index)` for every record of `pieces` (each sorted), in the order of all
  /// their ids; `id(piece, index)` gives an id, asked only where two share their first eight bytes.
  static func merge(
    _ pieces: [[Key]], id: (Int, Int) -> String, _ body: (_ piece: Int, _ index: Int) throws -> Void
  ) rethrows {
    var next = [Int](repeating: 0, count: pieces.count)
    while true {
      // A few pieces (one per core): the smallest head found by looking at each.
      var best: (piece: Int, key: Key)?
      for piece in pieces.indices where next[piece] < pieces[piece].count {
        let key = pieces[piece][next[piece]]
        if let known = best {
          let before =
            key.prefix != known.key.prefix
            ? key.prefix < known.key.prefix
            : TextOrder.less(id(piece, Int(key.index)), id(known.piece, Int(known.key.index)))
          if !before { continue }
        }
        best = (piece, key)
      }
      guard let best else { return }
      next[best.piece] += 1
      try body(best.piece, Int(best.key.index))
    }
  }
}
