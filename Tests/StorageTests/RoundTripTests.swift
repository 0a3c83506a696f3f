import Foundation
import Testing

@testable import Storage

@Suite struct RoundTripTests {
  let folder: TemporaryFolder
  let db: Database

  init() throws {
    folder = try TemporaryFolder()
    db = try Database(path: folder.file("round.sqlite"))
    try db.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, value ANY) STRICT")
  }

  /// Writes `value`, reads it back through a fresh statement, and returns what came back.
  func roundTrip<T: DatabaseValueConvertible>(_ value: T) throws -> T {
    try db.execute("DELETE FROM v")
    try db.execute("INSERT INTO v (id, value) VALUES (1, ?)", value)
    return try #require(try db.queryFirst("SELECT value FROM v WHERE id = 1") { try $0.get(0, as: T.self) })
  }

  /// A row read by name in any order, in another case, twice over the same statement, and with
  /// a name two columns share (the last one, as SQLite's own by-name lookups give it).
  @Test func columnsAreFoundByNameInAnyOrder() throws {
    try db.execute("INSERT INTO v (id, value) VALUES (1, 'one'), (2, 'two')")
    let sql = "SELECT id, value, id * 10 AS Tenfold FROM v ORDER BY id"
    for _ in 0..<2 {
      let rows = try db.query(sql) { row in [row["tenfold"], row["value"], row["ID"], row["id"], row["missing"]] }
      #expect(
        rows == [
          [.integer(10), .text("one"), .integer(1), .integer(1), .null],
          [.integer(20), .text("two"), .integer(2), .integer(2), .null],
        ])
    }
    let shared = try db.query("SELECT 1 AS a, 2 AS A, 3 AS b") { row in [row["b"], row["a"], row["A"]] }
    #expect(shared == [[.integer(3), .integer(2), .integer(2)]])
  }

  @Test func integersKeepTheirExtremes() throws {
    for value: Int64 in [0, 1, -1, .min, .max] {
      #expect(try roundTrip(value) == value)
    }
    #expect(try roundTrip(Int.max) == Int.max)
  }

  @Test func doublesKeepEveryBit() throws {
    for value in [0.0, -0.0, 1.5, .pi, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -1e-300] {
      #expect(try roundTrip(value).bitPattern == value.bitPattern)
    }
  }

  @Test func booleansAreStoredAsZeroAndOne() throws {
    #expect(try roundTrip(true) == true)
    #expect(try roundTrip(false) == false)
    #expect(try db.scalar(Int64.self, "SELECT value FROM v") == 0)
  }

  @Test func stringsSurviveUnicodeEmptinessAndSize() throws {
    let samples = [
      "", "plain", "emoji 🩸💉🧬 and flags 🇩🇪", "e\u{301} combining vs \u{E9} precomposed",
      "zero\u{0}inside", "quotes ' \" ; DROP TABLE v; --", String(repeating: "ü", count: 1 << 20),
    ]
    for sample in samples {
      let back = try roundTrip(sample)
      #expect(back == sample)
      #expect(Array(back.utf8) == Array(sample.utf8), "bytes must not be normalised")
    }
    #expect(try db.scalar(String.self, "SELECT typeof(value) FROM v") == "text")
  }

  @Test func emptyStringIsNotNull() throws {
    _ = try roundTrip("")
    #expect(try db.scalar(String.self, "SELECT typeof(value) FROM v") == "text")
  }

  @Test func blobsKeepZeroBytes() throws {
    let blob = Data([0, 1, 0, 255, 0, 0])
    #expect(try roundTrip(blob) == blob)
    #expect(try roundTrip(Data()) == Data())
    #expect(try db.scalar(String.self, "SELECT typeof(value) FROM v") == "blob")
    var big = Data(count: 3 << 20)
    big[12345] = 7
    #expect(try roundTrip(big) == big)
  }

  @Test func datesAreUTCTextWithMilliseconds() throws {
    let date = Date(timeIntervalSince1970: 1_795_000_000.123)
    #expect(abs(try roundTrip(date).timeIntervalSince(date)) < 0.0005)
    let stored = try #require(try db.scalar(String.self, "SELECT value FROM v"))
    #expect(stored == ISO8601.string(from: date))
    #expect(stored.hasSuffix("Z") && stored.count == 24)
  }

  @Test func uuidsAreLowercaseText() throws {
    let id = UUID()
    #expect(try roundTrip(id) == id)
    #expect(try db.scalar(String.self, "SELECT value FROM v") == id.uuidString.lowercased())
  }

  @Test func nullReadsAsNilOnlyForOptionals() throws {
    let none: String? = nil
    #expect(try roundTrip(none) == nil)
    #expect(try db.scalar(String.self, "SELECT typeof(value) FROM v") == "null")
    #expect(throws: StorageError.self) {
      _ = try db.queryFirst("SELECT value FROM v") { try $0.get(0, as: String.self) }
    }
  }

  @Test func readingTheWrongTypeIsATypedErrorNamingTheColumn() throws {
    try db.execute("INSERT INTO v (id, value) VALUES (2, 'text')")
    do {
      _ = try db.queryFirst("SELECT value FROM v WHERE id = 2") { try $0.get("value", as: Int64.self) }
      Issue.record("expected a type mismatch")
    } catch let error as StorageError {
      guard case .typeMismatch(let column, _, _) = error else { throw error }
      #expect(column == "value")
    }
  }

  @Test func argumentCountMustMatch() throws {
    #expect(throws: StorageError.argumentCount(expected: 1, got: 2, sql: "INSERT INTO v (id, value) VALUES (9, ?)")) {
      try db.execute("INSERT INTO v (id, value) VALUES (9, ?)", 1, 2)
    }
  }

  @Test func twoStatementsInOneCallAreRefused() throws {
    #expect(throws: StorageError.self) {
      try db.execute("DELETE FROM v; DROP TABLE v")
    }
    #expect(try db.scalar(Int64.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'v'") == 1)
  }

  @Test func statementsArePreparedOncePerSQLText() throws {
    let first = try db.statement("SELECT count(*) FROM v")
    let second = try db.statement("SELECT count(*) FROM v")
    #expect(first === second)
  }
}
