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

  /// A first sync of several pages fills the tables without their other indexes and builds them
  /// at its end; one that stops on an error builds them too, and one a crash stopped leaves
  /// notes that the next sync builds from. A table with rows already keeps its index throughout.
  @Test func aFirstSyncBuildsTheIndexesOfTheTablesItFillsAtItsEnd() async throws {
    try await LiveServer.with { url in
      let phone = try Device(email: "indexes@example.org", url: url)
      try await phone.register()
      let records = (0..<12_000).map { i -> (id: String, values: [DatabaseValue]) in
        let values: [String: DatabaseValue] = [
          "kind": .text("plasma"), "status": .text("completed"),
          "completed_at": .text(String(format: "20%02d-01-01T10:00:00.000Z", i % 30)),
          "place": .text("Centre \(i % 40)"),
        ]
        return (UUID().uuidString.lowercased(), Dataset.donation.fields.map { values[$0] ?? .null })
      }
      #expect(try phone.db.transaction { _ in try phone.replica.insertNew(.donation, records) } == 12_000)
      try phone.replica.write(
        .period, id: UUID().uuidString.lowercased(), ["start": .text("2026-02-01"), "end": .null])
      try await phone.sync()
      func indexes(_ device: Device) throws -> [String] {
        try device.db.query(
          "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        ) { try $0.get(0, as: String.self) }
      }
      let all = try indexes(phone)

      // The laptop has a period of its own: that table keeps its index.
      let laptop = try Device(email: "indexes@example.org", url: url)
      try await laptop.login()
      try laptop.replica.write(
        .period, id: UUID().uuidString.lowercased(), ["start": .text("2025-12-01"), "end": .null])
      var during: [[String]] = []
      let summary = try await laptop.client.sync(token: laptop.token, cursor: nil) { _ in
        during.append(try indexes(laptop))
      }
      #expect(summary.pulled >= 12_001)
      #expect(during.count >= 2, "\(during)")
      #expect(during.allSatisfy { !$0.contains("donation_account_date") && $0.contains("period_account_start") })
      #expect(try indexes(laptop) == all)
      #expect(try DeferredIndexes.noted(in: laptop.db).isEmpty)
      #expect(
        try laptop.snapshot().filter { $0.hasPrefix("donation") }
          == phone.snapshot().filter { $0.hasPrefix("donation") })

      // A sync that stops on an error (here its cursor cannot be saved) builds them all the same.
      let tablet = try Device(email: "indexes@example.org", url: url)
      try await tablet.login()
      struct Full: Error {}
      var saves = 0
      let client = tablet.client
      client.recordsPerCommit = 2_000
      await #expect(throws: Full.self) {
        _ = try await client.sync(token: tablet.token, cursor: nil) { _ in
          saves += 1
          if saves == 3 { throw Full() }
        }
      }
      // Committed before the error, without the index: built after it.
      #expect(try tablet.db.scalar(Int.self, "SELECT count(*) FROM donation").map { $0 > 0 } == true)
      #expect(try indexes(tablet) == all)
      #expect(try DeferredIndexes.noted(in: tablet.db).isEmpty)

      // A crash between two commits leaves the indexes out and noted: the next sync, with
      // nothing to pull, builds them.
      try await tablet.sync()
      try tablet.db.transaction { db in
        let index = try #require(try db.createdIndexes(on: "donation").first)
        try db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", "deferred_index:" + index.name, index.sql)
        try db.dropIndex(index.name)
      }
      #expect(try DeferredIndexes.noted(in: tablet.db).map(\.name) == ["donation_account_date"])
      #expect(try await tablet.sync().pulled == 0)
      #expect(try indexes(tablet) == all)
      #expect(try DeferredIndexes.noted(in: tablet.db).isEmpty)
    }
  }
}
