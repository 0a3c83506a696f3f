import Foundation
import Testing

@testable import Storage

/// Values bound until the next reset are copied into the statement's own memory, which each
/// reset reuses: what a run reads must be what was bound for it, never an earlier run's bytes.
@Suite struct BindArenaTests {
  let db: Database

  init() throws {
    db = try Database.inMemory()
    try db.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT, data BLOB) STRICT")
  }

  func stored() throws -> [[DatabaseValue]] {
    try db.query("SELECT id, text, data FROM note ORDER BY id") { row in (0..<3).map { row[$0] } }
  }

  @Test func eachRunReadsTheValuesBoundForItAsTheArenaGrows() throws {
    let insert = try db.statement("INSERT INTO note (id, text, data) VALUES (?, ?, ?)")
    var expected: [[DatabaseValue]] = []
    // Lengths that fit the buffer, outgrow it (a run's copies in buffers of their own), go past
    // the largest copied (SQLite copies those), and are empty or short (inline strings).
    for (i, length) in [40, 3, 200, 5000, 0, 1, 4096, 4097, 64, 10_000, 17].enumerated() {
      let text = String(repeating: Character(UnicodeScalar(UInt8(65 + i % 26))), count: length) + "é"
      let data = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i) })
      insert.reset()
      try insert.bindUntilReset(.integer(Int64(i)), at: 1)
      try insert.bindUntilReset(.text(text), at: 2)
      try insert.bindUntilReset(.blob(data), at: 3)
      while try insert.step() {}
      expected.append([.integer(Int64(i)), .text(text), .blob(data)])
    }
    #expect(try stored() == expected)
  }

  @Test func aParameterNotBoundAgainAfterResetIsNull() throws {
    let insert = try db.statement("INSERT INTO note (id, text) VALUES (?, ?)")
    try insert.bindUntilReset(.integer(1), at: 1)
    try insert.bindUntilReset(.text("a text long enough to live in the arena"), at: 2)
    while try insert.step() {}
    insert.reset()
    try insert.bindUntilReset(.integer(2), at: 1)
    while try insert.step() {}
    insert.reset()
    let texts = try db.query("SELECT text FROM note ORDER BY id") { $0[0] }
    #expect(texts == [.text("a text long enough to live in the arena"), .null])
  }

  @Test func aParameterBoundToStayOutlivesResets() throws {
    let insert = try db.statement("INSERT INTO note (id, text) VALUES (?, ?)")
    try insert.bind(.text("bound once, for every run"), at: 2)
    for id in 1...3 {
      insert.reset()
      try insert.bindUntilReset(.integer(Int64(id)), at: 1)
      while try insert.step() {}
    }
    let texts = try db.query("SELECT text FROM note ORDER BY id") { try $0.get(0, as: String.self) }
    #expect(texts == Array(repeating: "bound once, for every run", count: 3))
  }

  @Test func cachedStatementsRunWithTheirNewArguments() throws {
    // `execute` binds every argument through the arena; the cache hands the same statement back.
    for i in 0..<300 {
      try db.execute(
        "INSERT INTO note (id, text) VALUES (?, ?)", i, "note number \(i) " + String(repeating: "x", count: i))
    }
    let texts = try db.query("SELECT text FROM note ORDER BY id") { try $0.get(0, as: String.self) }
    #expect(texts == (0..<300).map { "note number \($0) " + String(repeating: "x", count: $0) })
    try db.execute("UPDATE note SET text = ? WHERE id = ?", values: [.text("changed by values"), .integer(7)])
    #expect(try db.scalar(String.self, "SELECT text FROM note WHERE id = ?", 7) == "changed by values")
  }

  @Test func aCopiedParameterBoundToStayAfterAResetStays() throws {
    let insert = try db.statement("INSERT INTO note (id, text) VALUES (?, ?)")
    try insert.bindUntilReset(.integer(1), at: 1)
    try insert.bindUntilReset(.text("copied for the first run only"), at: 2)
    while try insert.step() {}
    insert.reset()
    try insert.bind(.text("bound to stay from the second run on"), at: 2)
    for id in 2...3 {
      try insert.bindUntilReset(.integer(Int64(id)), at: 1)
      while try insert.step() {}
      insert.reset()
    }
    // Two resets with nothing bound between them: the copy is gone, the parameter is NULL.
    try insert.bindUntilReset(.text("copied again"), at: 2)
    try insert.bindUntilReset(.integer(4), at: 1)
    while try insert.step() {}
    insert.reset()
    insert.reset()
    try insert.bindUntilReset(.integer(5), at: 1)
    while try insert.step() {}
    let texts = try db.query("SELECT text FROM note ORDER BY id") { $0[0] }
    #expect(
      texts == [
        .text("copied for the first run only"), .text("bound to stay from the second run on"),
        .text("bound to stay from the second run on"), .text("copied again"), .null,
      ])
  }

  @Test func aRunLargerThanTheKeptBufferStillReadsItsValues() throws {
    // 300 texts of 4,000 bytes a run: more than the buffer a statement keeps (1 MiB).
    let rows = 300
    let insert = try db.statement(
      "INSERT INTO note (id, text) VALUES " + Array(repeating: "(?, ?)", count: rows).joined(separator: ", "))
    for run in 0..<3 {
      insert.reset()
      for row in 0..<rows {
        let id = run * rows + row
        try insert.bindUntilReset(.integer(Int64(id)), at: Int32(2 * row + 1))
        try insert.bindUntilReset(.text(String(repeating: "\(id % 10)", count: 4000)), at: Int32(2 * row + 2))
      }
      while try insert.step() {}
    }
    let texts = try db.query("SELECT id, text FROM note ORDER BY id") {
      (try $0.get(0, as: Int.self), try $0.get(1, as: String.self))
    }
    #expect(texts.count == 3 * rows)
    #expect(texts.allSatisfy { $0.1 == String(repeating: "\($0.0 % 10)", count: 4000) })
  }
}
