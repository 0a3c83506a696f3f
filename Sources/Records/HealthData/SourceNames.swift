import Storage

/// One String per source name: years of samples name a handful of sources, and comparing the
/// bytes of the last one costs less than a String (and its hash) per row.
struct SourceNames {
  private var bytes: [[UInt8]] = []
  /// The names met, in the order met: `index` points into it.
  private(set) var names: [String] = []
  private var last = -1

  /// The position in `names` of the name in `column` of `row`.
  mutating func index(_ row: Row, _ column: Int) -> Int {
    row.withUTF8(column) { raw in
      let raw = raw ?? UnsafeBufferPointer(start: nil, count: 0)
      if last >= 0, bytes[last].elementsEqual(raw) { return last }
      if let known = bytes.firstIndex(where: { $0.elementsEqual(raw) }) {
        last = known
      } else {
        bytes.append(Array(raw))
        names.append(String(decoding: raw, as: UTF8.self))
        last = names.count - 1
      }
      return last
    }
  }

  mutating func name(_ row: Row, _ column: Int) -> String { names[index(row, column)] }
}
