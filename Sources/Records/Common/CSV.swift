import Foundation

/// RFC 4180 CSV: fields quoted when they hold a comma, a quote or a line break; records end
/// with CRLF. The reader also takes LF endings and a leading UTF-8 byte order mark.
public enum CSV {
  public struct Record: Equatable, Sendable {
    /// The line the record starts on, counting from 1 (a quoted field may span lines).
    public let line: Int
    public let fields: [String]
  }

  public enum ParseError: Error, Equatable, CustomStringConvertible {
    case notUTF8
    case unbalancedQuote(line: Int)
    case textAfterQuote(line: Int)
    case recordTooLong(line: Int, limit: Int)

    public var description: String {
      switch self {
      case .notUTF8: return "the file is not UTF-8 text; save it as UTF-8 CSV"
      case .unbalancedQuote(let line): return "line \(line): a quoted field is never closed"
      case .textAfterQuote(let line): return "line \(line): text after a closing quote; double quotes inside a field"
      case .recordTooLong(let line, let limit):
        return "line \(line): one record runs past \(limit >> 20) MiB; is a quote left open?"
      }
    }
  }

  public static func parse(_ data: Data) throws -> [Record] {
    try parse(data, pieces: 1).flatMap { $0 }
  }

  /// What `parse` reads, in up to `pieces` parts parsed at once on as many threads: the file
  /// is cut just after line breaks outside quotes, each part at least `minimumPieceBytes`
  /// long. Returns the records of each part in order; of several errors, the one `parse`
  /// would throw.
  public static func parse(_ data: Data, pieces: Int, minimumPieceBytes: Int = 1 << 18) throws -> [[Record]] {
    var bytes = [UInt8](data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    let text = bytes
    let cuts = Self.cuts(text, pieces: min(pieces, max(1, text.count / max(1, minimumPieceBytes))))
    let ranges = cuts.indices.map { i in
      (range: cuts[i].start..<(i + 1 < cuts.count ? cuts[i + 1].start : text.count), firstLine: cuts[i].line)
    }
    // A whole parse checks the encoding first: text that is not UTF-8 is the error, wherever
    // it is, before any error of a part's records.
    let parsed = try ranges.concurrentMap { piece in
      Result { () throws(ParseError) -> [Record] in
        let part = text[piece.range]
        guard isASCII(part) || String(validating: part, as: UTF8.self) != nil else { throw ParseError.notUTF8 }
        return try parse(part, firstLine: piece.firstLine)
      }
    }
    if parsed.contains(where: { if case .failure(.notUTF8) = $0 { true } else { false } }) {
      throw ParseError.notUTF8
    }
    return try parsed.map { try $0.get() }
  }

  /// Whether every byte is ASCII, read eight at a time: most files are, and then need no
  /// copy into a string to be known as UTF-8.
  static func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.withUnsafeBytes { raw in
      var seen: UInt64 = 0
      var i = 0
      while i + 8 <= raw.count {
        seen |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        i += 8
      }
      while i < raw.count {
        seen |= UInt64(raw[i])
        i += 1
      }
      return seen & 0x8080_8080_8080_8080 == 0
    }
  }

  /// Where the parts of `bytes` start and the line each starts on. A part's start is just after
  /// a line break outside quotes: a part that parses without error has as many quotes as the
  /// parser opened and closed, so the next part starts outside any field, as a new record.
  static func cuts(_ bytes: [UInt8], pieces: Int) -> [(start: Int, line: Int)] {
    var cuts = [(start: 0, line: 1)]
    guard pieces > 1 else { return cuts }
    bytes.withUnsafeBufferPointer { bytes in
      var quoted = false
      var line = 1
      var target = bytes.count / pieces
      var i = 0
      while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: "\""):
          quoted.toggle()
        case UInt8(ascii: "\n"):
          line += 1
          if !quoted && i + 1 >= target && i + 1 < bytes.count {
            cuts.append((i + 1, line))
            if cuts.count == pieces { return }
            target = bytes.count / pieces * cuts.count
          }
        case UInt8(ascii: "\r") where !quoted && (i + 1 == bytes.count || bytes[i + 1] != UInt8(ascii: "\n")):
          line += 1  // the parser ends a record at a lone CR too
        default:
          break
        }
        i += 1
      }
    }
    return cuts
  }

  /// The records of `bytes`, UTF-8 text that starts a record on line `firstLine`. A field is
  /// made from its bytes in place; only one with a doubled quote is copied first.
  static func parse(_ bytes: ArraySlice<UInt8>, firstLine: Int) throws(ParseError) -> [Record] {
    let quote = UInt8(ascii: "\"")
    let comma = UInt8(ascii: ",")
    let lf = UInt8(ascii: "\n")
    let cr = UInt8(ascii: "\r")
    return try bytes.withUnsafeBufferPointer { (bytes) throws(ParseError) -> [Record] in
      var records: [Record] = []
      var fields: [String] = []
      var line = firstLine
      var recordLine = firstLine
      let end = bytes.count
      var i = 0
      // Each turn reads one field and what ends it.
      while true {
        if i < end && bytes[i] == quote {
          i += 1
          var start = i
          var unescaped: [UInt8] = []
          var doubled = false
          while true {
            guard i < end else { throw ParseError.unbalancedQuote(line: recordLine) }
            let b = bytes[i]
            if b == quote {
              guard i + 1 < end && bytes[i + 1] == quote else { break }
              doubled = true
              unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...i]))
              i += 2
              start = i
              continue
            }
            if b == lf { line += 1 }
            i += 1
          }
          let rest = UnsafeBufferPointer(rebasing: bytes[start..<i])
          if doubled {
            unescaped.append(contentsOf: rest)
            fields.append(String(decoding: unescaped, as: UTF8.self))
          } else {
            fields.append(String(decoding: rest, as: UTF8.self))
          }
          i += 1
          // Only a separator or the end of the record may follow a closing quote.
          if i < end && bytes[i] != comma && bytes[i] != lf && bytes[i] != cr {
            throw ParseError.textAfterQuote(line: line)
          }
        } else {
          let start = i
          while i < end {
            let b = bytes[i]
            if b == comma || b == lf || b == cr { break }
            if b == quote { throw ParseError.textAfterQuote(line: line) }
            i += 1
          }
          fields.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
        }
        guard i < end else { break }
        let b = bytes[i]
        i += 1
        if b == comma { continue }
        // A record ends at LF, CRLF or a lone CR.
        if b == cr && i < end && bytes[i] == lf { i += 1 }
        // A blank line is no record (a trailing newline at the end of the file, say).
        if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
        fields.removeAll(keepingCapacity: true)
        line += 1
        recordLine = line
        if i == end { return records }
      }
      if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
      return records
    }
  }

  /// One field, quoted when it must be.
  public static func field(_ text: String) -> String {
    if text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
      return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    return text
  }

  public static func record(_ fields: [String]) -> String {
    fields.map(field).joined(separator: ",") + "\r\n"
  }
}
