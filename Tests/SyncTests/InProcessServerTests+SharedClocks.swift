import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SyncServer

extension InProcessServerTests {
  static let other = "2026-11-23T08:00:00.000Z-0003-fedcba9876543210"

  /// A record pushed with a shared clock is answered with it to a device that reads them, and
  /// with a clock in every field to an older one (which does not say it reads them); a field
  /// without a clock in a request that has no shared one is refused.
  @Test func anOlderDeviceIsAnsweredWithAClockInEveryField() async throws {
    try await withServer { client in
      let token = try await Self.logIn(client)
      let fields =
        #"{"*":"\#(Self.hlc)","kind":{"value":"whole-blood"},"notes":{"value":null},"place":{"hlc":"\#(Self.other)","value":"DRK"}}"#
      let push =
        #"{"since":null,"shared_clocks":true,"changes":[{"dataset":"donation","id":"d1","fields":\#(fields)}]}"#
      let pushed = try await client.execute(
        uri: "/v1/sync", method: .post, headers: Self.bearer(token), body: Self.body(push))
      #expect(pushed.status == .ok, "\(String(buffer: pushed.body))")
      #expect(String(buffer: pushed.body).contains(#""shared_clocks":true"#))

      func pull(_ request: String) async throws -> [String: Any] {
        let answer = try await client.execute(
          uri: "/v1/sync", method: .post, headers: Self.bearer(token), body: Self.body(request))
        #expect(answer.status == .ok)
        let object = try JSONSerialization.jsonObject(with: Data(buffer: answer.body)) as? [String: Any]
        let changes = try #require(object?["changes"] as? [[String: Any]])
        #expect(changes.count == 1 && changes.first?["id"] as? String == "d1")
        return try #require(changes.first?["fields"] as? [String: Any])
      }
      let newer = try await pull(#"{"since":null,"shared_clocks":true,"changes":[]}"#)
      #expect(newer["*"] as? String == Self.hlc)
      #expect((newer["kind"] as? [String: Any])?["hlc"] == nil)
      #expect((newer["place"] as? [String: Any])?["hlc"] as? String == Self.other)
      let older = try await pull(#"{"since":null,"changes":[]}"#)
      #expect(older["*"] == nil && older.count == 3)
      for (name, clock) in [("kind", Self.hlc), ("notes", Self.hlc), ("place", Self.other)] {
        #expect((older[name] as? [String: Any])?["hlc"] as? String == clock, "\(name)")
      }
      #expect((older["kind"] as? [String: Any])?["value"] as? String == "whole-blood")

      let clockless = #"{"since":null,"changes":[{"dataset":"donation","id":"d2","fields":{"place":{"value":"x"}}}]}"#
      let refused = try await client.execute(
        uri: "/v1/sync", method: .post, headers: Self.bearer(token), body: Self.body(clockless))
      #expect(refused.status == .badRequest, "\(String(buffer: refused.body))")
    }
  }
}
