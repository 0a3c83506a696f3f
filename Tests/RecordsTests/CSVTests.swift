import Foundation
import Testing

@testable import Records

@Suite struct CSVTests {
  @Test func fieldsAreQuotedOnlyWhenTheyMustBe() {
    #expect(CSV.field("plain") == "plain")
    #expect(CSV.field("a,b") == "\"a,b\"")
    #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(CSV.field("two\nlines") == "\"two\nlines\"")
    #expect(CSV.field("crlf\r\nhere") == "\"crlf\r\nhere\"")
    #expect(CSV.record(["a", "", "c"]) == "a,,c\r\n")
  }

  @Test func writtenRecordsParseBack() throws {
    let rows = [
      ["id", "place", "notes"], ["1", "DRK, Berlin \"Mitte\"", "line one\nline two"],
      ["2", "Москва, пункт №1", ""], ["3", "東京", "emoji 🩸"],
    ]
    let text = rows.map(CSV.record).joined()
    let parsed = try CSV.parse(Data(text.utf8))
    #expect(parsed.map(\.fields) == rows)
    #expect(parsed.map(\.line) == [1, 2, 4, 5])
  }

  @Test func lfEndingsABOMAndATrailingNewlineAreFine() throws {
    let parsed = try CSV.parse(Data("\u{FEFF}a,b\n1,2\n\n".utf8))
    #expect(parsed.map(\.fields) == [["a", "b"], ["1", "2"]])
  }

  /// The reader makes a field from its bytes in place, and copies only one with doubled quotes.
  @Test func doubledQuotesEmptyFieldsAndEveryLineEnding() throws {
    let text = "\"a\"\"b\"\"c\",\"\"\"\",\"\",,x\r\n\"one\r\ntwo\",\"é, ü\"\rlast,\"\"\"end\"\"\""
    let parsed = try CSV.parse(Data(text.utf8))
    #expect(parsed.map(\.fields) == [["a\"b\"c", "\"", "", "", "x"], ["one\r\ntwo", "é, ü"], ["last", "\"end\""]])
    #expect(parsed.map(\.line) == [1, 2, 4])
    #expect(throws: CSV.ParseError.textAfterQuote(line: 1)) { try CSV.parse(Data("a,b\"c\n".utf8)) }
    #expect(throws: CSV.ParseError.unbalancedQuote(line: 1)) { try CSV.parse(Data("a,\"b\"\"".utf8)) }
  }

  @Test func anUnclosedQuoteNamesTheLineItStartsOn() {
    #expect(throws: CSV.ParseError.unbalancedQuote(line: 3)) {
      try CSV.parse(Data("a,b\n1,2\n3,\"open\nstill open\n".utf8))
    }
  }

  @Test func textAfterAClosingQuoteIsRefused() {
    #expect(throws: CSV.ParseError.textAfterQuote(line: 2)) { try CSV.parse(Data("a,b\n\"x\"y,2\n".utf8)) }
    #expect(throws: CSV.ParseError.textAfterQuote(line: 1)) { try CSV.parse(Data("ab\"c\",d\n".utf8)) }
  }

  @Test func invalidUTF8IsRefused() {
    #expect(throws: CSV.ParseError.notUTF8) { try CSV.parse(Data([0x61, 0x2C, 0xFF, 0xFE, 0x0A])) }
  }

  @Test func theByteWriterWritesWhatTheStringWriterWrites() throws {
    let rows = [["a", "b,c", ""], ["say \"hi\"", "two\nlines", "Ünïcödé 🩸"]]
    var chunks: [[UInt8]] = []
    var writer = CSVWriter(flushAt: 8) { chunks.append($0) }
    for row in rows {
      for field in row { writer.field(field) }
      try writer.endRecord()
    }
    try writer.flush()
    #expect(chunks.count > 1, "small flush size must give several chunks")
    #expect(String(decoding: chunks.flatMap { $0 }, as: UTF8.self) == rows.map(CSV.record).joined())
  }

  /// A collecting writer that reserved megabytes up front (backed by huge pages where the
  /// kernel gives them) holds what it was given and grows past what it reserved.
  @Test func aWriterThatReservedMegabytesKeepsEveryByte() throws {
    var writer = CSVWriter(collecting: 16)
    writer.field("before")
    try writer.endRecord()
    writer.reserve(6 << 20)
    #expect(writer.bytes.capacity >= 6 << 20)
    #expect(writer.bytes == Array("before\r\n".utf8), "what came before the reserve is kept")
    let row = String(repeating: "x", count: 1000)
    for _ in 0..<7000 {
      writer.field(row)
      try writer.endRecord()
    }
    #expect(writer.bytes.count == 8 + 7000 * 1002)
    #expect(writer.bytes.suffix(1002) == ArraySlice(Array((row + "\r\n").utf8)))
  }

  /// Read in batches of any chunk size, a file gives the records (and line numbers) it gives
  /// read whole, quoted line breaks and CRLF included.
  @Test func batchesGiveWhatOneParseGives() throws {
    let text =
      "lat,lon,label\r\n48.1,11.5,\"Dom,\r\nRegensburg\"\n\n49.0,12.0,\"say \"\"hi\"\"\"\n50,10,x\r51,9,\"a\rb\"\r52,8,z\n\"a\nb\nc\",1,2"
    let folder = try TemporaryFolder()
    let path = folder.path + "/points.csv"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    let whole = try CSV.parse(Data(text.utf8))
    for chunk in [1, 2, 3, 7, 64, 1 << 20] {
      let handle = try #require(FileHandle(forReadingAtPath: path))
      defer { try? handle.close() }
      var batches: [CSV.Record] = []
      try CSV.forEachBatch(handle, chunkSize: chunk) { batches += $0 }
      #expect(batches == whole, "chunk \(chunk)")
    }
    // Old Mac line ends only (a lone CR ends each record): cut there too, so no batch grows
    // past the limit that stops a runaway quote.
    let mac = folder.path + "/mac.csv"
    let macText = (1...50).map { "\($0),x" }.joined(separator: "\r") + "\r"
    #expect(FileManager.default.createFile(atPath: mac, contents: Data(macText.utf8)))
    let macHandle = try #require(FileHandle(forReadingAtPath: mac))
    defer { try? macHandle.close() }
    var macRecords: [CSV.Record] = []
    try CSV.forEachBatch(macHandle, chunkSize: 16, maxRecordBytes: 64) { macRecords += $0 }
    #expect(macRecords == (try CSV.parse(Data(macText.utf8))))
    #expect(macRecords.map(\.line) == Array(1...50))
    let open = folder.path + "/open.csv"
    #expect(
      FileManager.default.createFile(
        atPath: open, contents: Data(("1,2\n\"" + String(repeating: "x\n", count: 600)).utf8)))
    let handle = try #require(FileHandle(forReadingAtPath: open))
    #expect(throws: CSV.ParseError.recordTooLong(line: 2, limit: 1024)) {
      try CSV.forEachBatch(handle, chunkSize: 100, maxRecordBytes: 1024) { _ in }
    }
  }
}

@Suite struct CSVPiecesTests {
  /// Quoted line breaks, CRLF, a lone CR, doubled quotes, blank lines and a BOM, over enough
  /// records that every cut lands somewhere different.
  static let tricky: String = {
    var text = "\u{FEFF}id,place,notes\r\n"
    for i in 0..<300 {
      switch i % 6 {
      case 0: text += "\(i),\"Hall \(i),\r\nfloor 2\",plain\r\n"
      case 1: text += "\(i),\"say \"\"hi\"\"\",\"a\nb\nc\"\n"
      case 2: text += "\(i),lone,cr\r"
      case 3: text += "\(i),\"\",\n\n"
      case 4: text += "\(i),Ülm 東京 🩸,\"x\"\r\n"
      default: text += "\(i),\"\r\n\",\"\"\"\"\n"
      }
    }
    return text
  }()

  @Test func piecesGiveWhatOneParseGives() throws {
    let data = Data(Self.tricky.utf8)
    let whole = try CSV.parse(data)
    #expect(whole.count == 301)
    for pieces in 1...9 {
      let parts = try CSV.parse(data, pieces: pieces, minimumPieceBytes: 1)
      #expect(parts.count == pieces, "the file is cut into \(pieces)")
      #expect(parts.allSatisfy { !$0.isEmpty })
      #expect(parts.flatMap { $0 } == whole, "\(pieces) pieces")
    }
  }

  @Test(arguments: [
    ("bad UTF-8 near the end beats a quote error near the start", "a,b\n\"x\"y,2\n", "\n1,\u{FF}\n"),
    ("text after a quote late in the file", "a,b\n1,2\n", "\n3,\"x\"y\n"),
    ("a quote never closed in the last record", "a,b\n1,2\n", "\n\"open\nstill\n"),
    ("a quote error early and another late", "a,b\n1\"2,3\n", "\n\"x\"y\n"),
  ])
  func piecesThrowTheErrorOneParseThrows(name: String, head: String, tail: String) throws {
    var bytes = Array(head.utf8)
    for i in 0..<200 { bytes += Array("\(i),\"row \(i)\"\n".utf8) }
    // "\u{FF}" is C3 BF in UTF-8; FF BF is not UTF-8.
    bytes += Array(tail.utf8).map { $0 == 0xC3 ? 0xFF : $0 }
    let data = Data(bytes)
    var wholeError: CSV.ParseError?
    do { _ = try CSV.parse(data) } catch { wholeError = error as? CSV.ParseError }
    let expected = try #require(wholeError, "\(name): the whole file must fail")
    for pieces in 2...6 {
      #expect(throws: expected, "\(name), \(pieces) pieces") {
        try CSV.parse(data, pieces: pieces, minimumPieceBytes: 1)
      }
    }
  }
}
