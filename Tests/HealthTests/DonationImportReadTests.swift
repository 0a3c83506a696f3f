import Foundation
import Testing

@testable import Health

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
    let rows = try DonationStore.read([[row(2, c), row(3, a)], [row(4, b)]], parser)
    #expect(rows.map(\.line) == [2, 3, 4])
    #expect(rows.map(\.donation.id) == [c, a, b])
  }

  @Test func anIdAgainInALaterPieceIsFoundAndNamesItsFirstLine() {
    #expect(
      problem([[row(2, a), row(3, b)], [row(4, c), row(5, a)]])?.hasPrefix(
        "line 5: id \(a) appears again (first on line 2)") == true)
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
