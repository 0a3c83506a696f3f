import Foundation
import Storage
import Testing

@testable import Records

/// Rows read in pieces on several threads give the error a read from the top meets first.
@Suite struct DonationImportReadTests {
  let parser = DonationCSVParser(
    columns: 7, now: Date(timeIntervalSince1970: 1_795_000_000), calendar: Calendar(identifier: .gregorian))

  func row(_ line: Int, _ id: String, completed: String = "2026-01-05T10:00:00Z") -> CSV.Record {
    CSV.Record(line: line, fields: [id, "plasma", "completed", "", completed, "DRK", ""])
  }

  let a = "0b8a9f00-5a3c-4f44-9a77-1c1c2a1d2e3f"
  let b = "1b8a9f00-5a3c-4f44-9a77-1c1c2a1d2e3f"
  let c = "2b8a9f00-5a3c-4f44-9a77-1c1c2a1d2e3f"

  func problem(_ pieces: [[CSV.Record]]) -> String? {
    do {
      _ = try DonationStore.read(pieces, parser)
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test func rowsComeInFileOrder() throws {
    let read = try DonationStore.read([[row(2, c), row(3, a)], [row(4, b)]], parser)
    let rows = read.rows.joined()
    #expect(rows.map(\.line) == [2, 3, 4])
    #expect(rows.map(\.donation.id) == [c, a, b])
    // Each piece's places in id order, for the writer to merge.
    #expect(read.order.map { $0.map(\.index) } == [[1, 0], [0]])
  }

  @Test func anIdAgainInALaterPieceIsFoundAndNamesItsFirstLine() {
    #expect(
      problem([[row(2, a), row(3, b)], [row(4, c), row(5, a)]])?.hasPrefix(
        "line 5: id \(a) appears again (first on line 2)") == true)
  }

  @Test func anIdAgainInTheSamePieceOrTwoPiecesOnIsFound() {
    #expect(
      problem([[row(2, a)], [row(3, b), row(4, b)]])?.hasPrefix("line 4: id \(b) appears again (first on line 3)")
        == true)
    #expect(
      problem([[row(2, a)], [row(3, b)], [row(4, c), row(5, a)]])?.hasPrefix(
        "line 5: id \(a) appears again (first on line 2)") == true)
    // A repeat within a later piece that comes before a repeat of an earlier piece's id.
    #expect(
      problem([[row(2, a)], [row(3, b), row(4, b), row(5, a)]])?.hasPrefix("line 4: id \(b)") == true)
    #expect(
      problem([[row(2, a)], [row(3, a), row(4, b), row(5, b)]])?.hasPrefix("line 3: id \(a)") == true)
  }

  /// The order SQLite keeps text keys in (bytes), with ids that share their first eight bytes,
  /// shorter ones, and ones beyond ASCII: each piece sorted on its own, then the pieces merged.
  @Test func newRecordsAreSortedAsSQLiteOrdersTheirIds() throws {
    var ids = (0..<2_000).map { _ in UUID().uuidString.lowercased() }
    ids += [
      "0b8a9f00-a", "0b8a9f00-", "0b8a9f00", "0b8a9f0", "", "0b8a9f00-5a3c-4f44-9a77-1c1c2a1d2e3f", "Zürich", "Zu", "é",
      "e\u{301}", "0b8a9f00\u{E9}", "0b8a9f00e\u{301}",
    ]
    ids += ids.prefix(50).map { String($0.prefix(8)) + "-ffff" }
    let shuffled = ids.shuffled()
    let db = try Database.inMemory()
    try db.execute("CREATE TABLE k (id TEXT PRIMARY KEY) WITHOUT ROWID")
    for id in ids { try db.execute("INSERT INTO k VALUES (?)", id) }
    let sqliteOrder = try db.query("SELECT id FROM k ORDER BY id") { try $0.get(0, as: String.self) }
    for count in [1, 2, 3, 7] {
      let pieces = stride(from: 0, to: shuffled.count, by: (shuffled.count + count - 1) / count).map {
        Array(shuffled[$0..<min($0 + (shuffled.count + count - 1) / count, shuffled.count)])
      }
      let orders = pieces.map { piece in
        IDOrder.sorted(piece.indices.map { IDOrder.key(piece[$0], at: $0) }) { piece[$0] }
      }
      var sorted: [String] = []
      IDOrder.merge(orders, id: { pieces[$0][$1] }, { sorted.append(pieces[$0][$1]) })
      #expect(sorted.count == sqliteOrder.count)
      // As bytes: String's == takes "\u{E9}" and "e\u{301}" for one text.
      let differs = sorted.indices.first { Array(sorted[$0].utf8) != Array(sqliteOrder[$0].utf8) }
      #expect(
        differs == nil, "\(count) pieces, at \(differs ?? 0): \(differs.map { (sorted[$0], sqliteOrder[$0]) } as Any)")
    }
  }

  @Test func theFirstProblemFromTheTopWins() {
    // A bad row before the repeated id: the bad row.
    #expect(
      problem([[row(2, a), row(3, b, completed: "soon")], [row(4, a)]])?.hasPrefix("line 3: completed_at") == true)
    // A repeated id before a bad row in the same later piece: the repeat.
    #expect(problem([[row(2, a)], [row(3, a), row(4, b, completed: "soon")]])?.hasPrefix("line 3: id") == true)
    // A bad row in the first piece, a repeat within the second: the bad row.
    #expect(
      problem([[row(2, a, completed: "soon")], [row(3, b), row(4, b)]])?.hasPrefix("line 2: completed_at") == true)
  }
}
