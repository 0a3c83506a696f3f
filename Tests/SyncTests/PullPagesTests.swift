import Foundation
import Replication
import Storage
import Testing

@testable import SyncHTTP

/// A pull of several pages applies some of them together, and commits several applications at
/// once: what arrives is the same, and the saved cursor only ever follows what was applied.
@Suite struct PullPagesTests {
  @Test func pagesHeldTogetherArriveWhole() async throws {
    try await LiveServer.with { url in
      let phone = try Device(email: "pages@example.org", url: url)
      try await phone.register()
      let records = (0..<12_000).map { i -> (id: String, values: [DatabaseValue]) in
        let values: [String: DatabaseValue] = [
          "kind": .text("plasma"), "status": .text("completed"), "completed_at": .text("2026-01-01T10:00:00.000Z"),
          "place": .text("Centre \(i % 40)"), "notes": i % 7 == 0 ? .text("note \(i)") : .null,
        ]
        return (UUID().uuidString.lowercased(), Dataset.donation.fields.map { values[$0] ?? .null })
      }
      #expect(try phone.db.transaction { _ in try phone.replica.insertNew(.donation, records) } == 12_000)
      try await phone.sync()

      // Pages of at most 5000 records (fewer when their bytes run out) are held until 7000
      // records wait, then applied together with the cursor of the last.
      let laptop = try Device(email: "pages@example.org", url: url)
      try await laptop.login()
      let client = laptop.client
      client.heldRecords = 7000
      var saved: [Int] = []
      var pages: [Int] = []
      let summary = try await client.sync(token: laptop.token, cursor: nil) { _ in
        saved.append(try laptop.db.scalar(Int.self, "SELECT count(*) FROM donation") ?? 0)
      } progress: {
        pages.append($0.pulled)
      }
      #expect(summary.pulled == 12_000)
      #expect(pages.count >= 3 && saved.count < pages.count, "pages \(pages), saved after \(saved)")
      #expect(saved.last == 12_000)
      #expect(saved.dropLast().allSatisfy { $0 >= 7000 }, "a save only once enough records waited: \(saved)")
      #expect(saved.allSatisfy { pages.contains($0) }, "each saved cursor goes with every record before it")
      #expect(try laptop.snapshot() == phone.snapshot())

      // Applied as they come, pages are committed several at once: another process sees
      // nothing of them until 7000 records were written, then all of them up to that page.
      let tablet = try Device(email: "pages@example.org", url: url)
      try await tablet.login()
      let other = try Database(path: tablet.folder + "/vital.sqlite")
      let tabletClient = tablet.client
      tabletClient.recordsPerCommit = 7000
      tabletClient.secondsPerCommit = .infinity
      var seen: [(applied: Int, committed: Int)] = []
      _ = try await tabletClient.sync(token: tablet.token, cursor: nil) { _ in
        let applied = try tablet.db.scalar(Int.self, "SELECT count(*) FROM donation") ?? 0
        seen.append((applied, try other.scalar(Int.self, "SELECT count(*) FROM donation") ?? 0))
      }
      #expect(seen.count >= 3, "\(seen)")
      #expect(seen.first?.committed == 0 && seen.dropFirst().first?.committed == 0, "\(seen)")
      #expect(seen.contains { $0.committed > 0 }, "committed during the sync, not only at its end: \(seen)")
      for (before, after) in zip(seen, seen.dropFirst()) {
        #expect(after.committed == before.committed || after.committed == before.applied, "\(seen)")
        #expect(after.committed == before.committed || before.applied - before.committed >= 7000, "\(seen)")
      }
      #expect(try other.scalar(Int.self, "SELECT count(*) FROM donation") == 12_000)
      #expect(try tablet.snapshot() == phone.snapshot())
    }
  }
}
