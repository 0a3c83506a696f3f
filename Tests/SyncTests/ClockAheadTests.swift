import Foundation
import Replication
import Storage
import Testing

@testable import Sync

/// A device whose clock once ran two days ahead recovers by itself once the clock is fixed: its
/// pending changes are stamped again at the server's time, nothing is lost, and later edits
/// elsewhere still win over them.
@Suite struct ClockAheadTests {
  func place(_ device: Device, _ id: String) throws -> String? {
    try device.db.scalar(String.self, "SELECT place FROM donation WHERE id = ?", id)
  }

  @Test func changesStampedWhileTheClockRanAheadAreStampedAgainAndSync() async throws {
    try await LiveServer.with { url in
      let a = try Device(email: "clock@example.org", url: url)
      let b = try Device(email: "clock@example.org", url: url)
      try await a.register()
      try await b.login()
      let synced = try a.donation(place: "before")
      try await a.sync()
      try await b.sync()

      // Two days ahead: a new record and an edit of the synced one.
      let ahead = Replica(db: a.db, accountID: a.accountID, now: Date().addingTimeInterval(2 * 86_400))
      let made = UUID().uuidString.lowercased()
      try ahead.write(
        .donation, id: made,
        [
          "kind": .text("plasma"), "status": .text("completed"), "scheduled_at": .null,
          "completed_at": .text("2026-01-02T10:00:00.000Z"), "place": .text("made ahead"), "notes": .null,
        ])
      try ahead.write(.donation, id: synced, ["place": .text("edited ahead")])

      // The clock is fixed; the next sync is refused once, stamps again and goes through.
      let summary = try await a.sync()
      #expect(summary.pushed >= 2)
      #expect(try a.replica.pendingCount() == 0)
      let last = try #require(
        try a.db.scalar(String.self, "SELECT value FROM meta WHERE key = 'hlc_last'").flatMap(HLC.init))
      #expect(last.date.timeIntervalSinceNow < 3600, "the clock continues from the server's time")
      #expect(try a.db.scalar(String.self, "SELECT max(hlc) FROM sync_outbox") == nil)

      try await b.sync()
      #expect(try place(b, made) == "made ahead")
      #expect(try place(b, synced) == "edited ahead")
      // b edits after: its edit wins, which it would not have against a clock two days ahead.
      try b.replica.write(.donation, id: synced, ["place": .text("edited later on b")])
      try await b.sync()
      try await a.sync()
      #expect(try place(a, synced) == "edited later on b")
      #expect(try a.snapshot() == b.snapshot())
    }
  }

  @Test func theRefusalCarriesTheServerTime() async throws {
    try await LiveServer.with { url in
      let a = try Device(email: "refusal@example.org", url: url)
      try await a.register()
      let reading = HLC(
        milliseconds: Int64(Date().addingTimeInterval(2 * 86_400).timeIntervalSince1970 * 1000), counter: 0,
        node: "00000000000000aa")
      let body = """
        {"since": null, "changes": [{"dataset": "donation", "id": "x", "fields": {"place": {"value": "p", "hlc": "\(reading)"}}}]}
        """
      let (status, text) = try await RawHTTP(url: url).sync(body, token: a.token)
      #expect(status == 400)
      #expect(text.contains("\"server_time\""))
      #expect(text.contains("more than an hour ahead"))
    }
  }
}
