import Foundation

extension CSV {
  /// Reads the records of `handle` a batch at a time, in memory that does not grow with the
  /// file: each batch ends where a record ends (a quoted field may hold line breaks), and keeps
  /// the line numbers of the whole file. A single record over `maxRecordBytes` is refused.
  public static func forEachBatch(
    _ handle: FileHandle, chunkSize: Int = 1 << 22, maxRecordBytes: Int = 16 << 20,
    _ body: ([Record]) throws -> Void
  ) throws {
    var buffer: [UInt8] = []
    var scanned = 0
    var quoted = false
    var boundary = 0  // just after the last line break outside quotes
    var linesBefore = 0
    func emit(_ count: Int) throws {
      let part = buffer[..<count]
      let records = try parse(Data(part)).map { Record(line: $0.line + linesBefore, fields: $0.fields) }
      linesBefore += lineBreaks(in: buffer, upTo: count)
      buffer.removeFirst(count)
      scanned -= count
      boundary = 0
      if !records.isEmpty { try body(records) }
    }
    while true {
      let chunk = try handle.read(upToCount: chunkSize) ?? Data()
      if chunk.isEmpty {
        if !buffer.isEmpty { try emit(buffer.count) }
        return
      }
      buffer.append(contentsOf: chunk)
      while scanned < buffer.count {
        let byte = buffer[scanned]
        if byte == UInt8(ascii: "\"") {
          quoted.toggle()
        } else if byte == UInt8(ascii: "\n"), !quoted {
          boundary = scanned + 1
        } else if byte == UInt8(ascii: "\r"), !quoted {
          // A CR alone ends a record too (files saved with old Mac line ends have no LF at
          // all); whether it is alone shows only once the next byte is here.
          guard scanned + 1 < buffer.count else { break }
          if buffer[scanned + 1] != UInt8(ascii: "\n") { boundary = scanned + 1 }
        }
        scanned += 1
      }
      if boundary > 0 {
        try emit(boundary)
      } else if buffer.count > maxRecordBytes {
        throw ParseError.recordTooLong(line: linesBefore + 1, limit: maxRecordBytes)
      }
    }
  }

  /// How many lines the parser counts in `bytes[..<end]`, which starts outside quotes: every LF,
  /// and outside quotes every CR not followed by an LF.
  static func lineBreaks(in bytes: [UInt8], upTo end: Int) -> Int {
    var lines = 0
    var quoted = false
    for i in 0..<end {
      switch bytes[i] {
      case UInt8(ascii: "\""): quoted.toggle()
      case UInt8(ascii: "\n"): lines += 1
      case UInt8(ascii: "\r") where !quoted && (i + 1 == bytes.count || bytes[i + 1] != UInt8(ascii: "\n")): lines += 1
      default: break
      }
    }
    return lines
  }
}
