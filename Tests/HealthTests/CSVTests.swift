import Foundation
import Testing

@testable import Health

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

  /// Read in batches of any chunk size, a file gives the records (and line numbers) it gives
  /// read whole, quoted line breaks and CRLF included.
  @Test func batchesGiveWhatOneParseGives() throws {
    let text =
      "lat,lon,label\r\n48.1,11.5,\"Dom,\r\nRegensburg\"\n\n49.0,12.0,\"say \"\"hi\"\"\"\n50,10,x\n\"a\nb\nc\",1,2"
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
