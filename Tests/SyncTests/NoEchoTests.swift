import Foundation
import Replication
import Testing

@testable import Sync

/// A sync answer leaves out what the same request wrote: the sender has it. On either backend
/// (VITAL_TEST_BACKEND).
@Suite struct NoEchoTests {
  func hlc(_ minute: Int) -> String {
    HLC.next(after: nil, now: Date().addingTimeInterval(Double(minute - 60) * 60), node: "0123456789abcdef").description
  }

  func change(_ id: String, _ field: String, _ value: String, _ hlc: String) -> String {
    #"{"dataset":"donation","id":"\#(id)","fields":{"\#(field)":{"value":"\#(value)","hlc":"\#(hlc)"}}}"#
  }

  /// Sends `changes` from `since`; returns the ids answered and the cursor.
  func sync(_ url: URL, _ token: String, since: String?, _ changes: [String]) async throws -> (
    ids: [String], cursor: String, more: Bool
  ) {
    let since = since.map { "\"\($0)\"" } ?? "null"
    let (status, body) = try await RawHTTP(url: url).sync(
      #"{"since":\#(since),"changes":[\#(changes.joined(separator: ","))]}"#, token: token)
    try #require(status == 200, "\(body)")
    let answer = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    let ids = (answer["changes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    return (ids, try #require(answer["cursor"] as? String), answer["has_more"] as? Bool ?? false)
  }

  @Test func theAnswerToAPushCarriesNoneOfThePushedRecords() async throws {
    try await LiveServer.with { url in
      let phone = try Device(email: "echo@example.org", url: url)
      try await phone.register()
      let laptop = try Device(email: "echo@example.org", url: url)
      try await laptop.login()

      // A first push of 300 records: nothing comes back, and the cursor moves past them.
      let first = try await sync(url, phone.token, since: nil, (0..<300).map { change("p\($0)", "place", "A", hlc(1)) })
      #expect(first.ids.isEmpty)
      #expect(!first.more)
      let pulled = try await sync(url, laptop.token, since: nil, [])
      #expect(pulled.ids.count == 300, "another device gets them all")
      let after = try await sync(url, phone.token, since: first.cursor, [])
      #expect(after.ids.isEmpty, "the cursor is past the pushed records: they never come back")

      // The laptop writes l1 and edits p1's notes; the phone, not having pulled yet, pushes new
      // records, and edits p1's place and p2's place.
      let laptopPush = try await sync(
        url, laptop.token, since: pulled.cursor,
        [change("l1", "place", "L", hlc(2)), change("p1", "notes", "n", hlc(2))])
      #expect(laptopPush.ids.isEmpty)
      let phonePush = try await sync(
        url, phone.token, since: after.cursor,
        [change("p300", "place", "B", hlc(3)), change("p1", "place", "C", hlc(3)), change("p2", "place", "D", hlc(3))])
      // What the laptop wrote comes; of the phone's own writes only p1, which now also holds the
      // laptop's notes (merged into a record the phone had not pulled); p2 and p300 do not.
      #expect(Set(phonePush.ids) == ["l1", "p1"])
      #expect(phonePush.ids.filter { $0 == "p1" }.count == 1)
      #expect(!phonePush.more)
      let quiet = try await sync(url, phone.token, since: phonePush.cursor, [])
      #expect(quiet.ids.isEmpty, "the cursor moved past p2 and p300")
      let laptopPull = try await sync(url, laptop.token, since: laptopPush.cursor, [])
      #expect(Set(laptopPull.ids) == ["p300", "p1", "p2"], "another device gets every one")
    }
  }

  @Test func theClientAndTheServerAgreeWithoutEcho() async throws {
    try await LiveServer.with { url in
      let phone = try Device(email: "echo2@example.org", url: url)
      try await phone.register()
      for i in 0..<50 { _ = try phone.donation(id: "d\(i)", place: "Place \(i)") }
      let summary = try await phone.sync()
      #expect(summary.pushed == 50)
      #expect(summary.pulled == 0, "no record of its own comes back")
      let laptop = try Device(email: "echo2@example.org", url: url)
      try await laptop.login()
      #expect(try await laptop.sync().pulled == 50)
      #expect(try laptop.snapshot() == phone.snapshot())
    }
  }
}
