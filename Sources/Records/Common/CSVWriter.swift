import Core

/// Builds RFC 4180 CSV as bytes, flushing in chunks: the fast path for exports of many rows.
public struct CSVWriter {
  public private(set) var bytes: [UInt8] = []
  private var atRecordStart = true
  private let flushAt: Int
  private let sink: ([UInt8]) throws -> Void

  public init(flushAt: Int = 1 << 20, sink: @escaping ([UInt8]) throws -> Void) {
    self.flushAt = flushAt
    self.sink = sink
    bytes.reserveCapacity(flushAt + 4096)
  }

  /// A writer that keeps everything in `bytes`: nothing goes anywhere until the caller takes it.
  public init(collecting capacity: Int) {
    flushAt = .max
    sink = { _ in }
    bytes.reserveCapacity(capacity)
  }

  /// Makes room for `capacity` bytes in all, so that a collecting writer need not grow as it goes;
  /// megabytes of it in huge pages, where the kernel gives them (`reserveCapacityInHugePages`).
  public mutating func reserve(_ capacity: Int) {
    bytes.reserveCapacityInHugePages(capacity)
  }

  /// Appends a whole record written before (fields and line end), as it is.
  public mutating func rawRecord(_ record: UnsafeBufferPointer<UInt8>) throws {
    precondition(atRecordStart, "a record goes between records")
    bytes.append(contentsOf: record)
    if bytes.count >= flushAt { try flush() }
  }

  /// Appends one field from raw UTF-8 (nil or empty gives an empty field).
  public mutating func field(_ text: UnsafeBufferPointer<UInt8>?) {
    separate()
    guard let text, !text.isEmpty else { return }
    if text.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) {
      bytes.append(34)
      for b in text {
        if b == 34 { bytes.append(34) }
        bytes.append(b)
      }
      bytes.append(34)
    } else {
      bytes.append(contentsOf: text)
    }
  }

  public mutating func field(_ text: String) {
    var text = text
    text.withUTF8 { field($0) }
  }

  /// Appends a field whose bytes the caller writes itself (already safe: digits, dashes, colons).
  public mutating func rawField(_ write: (inout [UInt8]) -> Void) {
    separate()
    write(&bytes)
  }

  public mutating func endRecord() throws {
    bytes.append(13)
    bytes.append(10)
    atRecordStart = true
    if bytes.count >= flushAt { try flush() }
  }

  public mutating func flush() throws {
    guard !bytes.isEmpty else { return }
    try sink(bytes)
    bytes.removeAll(keepingCapacity: true)
  }

  private mutating func separate() {
    if !atRecordStart { bytes.append(44) }
    atRecordStart = false
  }
}
