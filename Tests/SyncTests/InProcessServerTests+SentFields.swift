import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SyncServer

extension InProcessServerTests {
  /// The body of the one change a pull answers, as bytes between `"fields":` and its end.
  static func pulledFields(_ client: some TestClientProtocol, token: String) async throws -> String {
    let answer = try await client.execute(
      uri: "/v1/sync", method: .post, headers: Self.bearer(token),
      body: Self.body(#"{"since":null,"shared_clocks":true,"changes":[]}"#))
    #expect(answer.status == .ok)
    let text = String(buffer: answer.body)
    let start = try #require(text.range(of: #""fields":"#)?.upperBound)
    let end = try #require(text.range(of: #"}],"cursor""#)?.lowerBound)
    return String(text[start..<end])
  }

  static func push(_ client: some TestClientProtocol, token: String, fields: String) async throws {
    let push =
      #"{"since":null,"shared_clocks":true,"changes":[{"dataset":"donation","id":"d1","fields":\#(fields)}]}"#
    let pushed = try await client.execute(
      uri: "/v1/sync", method: .post, headers: Self.bearer(token), body: Self.body(push))
    #expect(pushed.status == .ok, "\(String(buffer: pushed.body))")
  }

  /// A new record's fields are kept as they were sent (spaces, order and all: they were read and
  /// checked whole); once a merge changes them they are written anew.
  @Test func aNewRecordsFieldsAreKeptAsSentAndWrittenAnewOnceMerged() async throws {
    try await withServer { client in
      let token = try await Self.logIn(client)
      let sent =
        #"{ "place": {"value": "Ulm"}, "kind": {"hlc": "\#(Self.hlc)", "value": "plasma"}, "*": "\#(Self.hlc)" }"#
      try await Self.push(client, token: token, fields: sent)
      #expect(try await Self.pulledFields(client, token: token) == sent)

      try await Self.push(client, token: token, fields: #"{"place":{"hlc":"\#(Self.other)","value":"Bonn"}}"#)
      #expect(
        try await Self.pulledFields(client, token: token)
          == #"{"kind":{"hlc":"\#(Self.hlc)","value":"plasma"},"place":{"hlc":"\#(Self.other)","value":"Bonn"}}"#)
    }
  }

  /// What a reader passes over (a member beside value and clock) is not relayed, of a value
  /// named twice the reader's choice (the last) is what is kept, and fields with a clock each
  /// are stored in the form a device that reads shared clocks is sent.
  @Test func fieldsWithMoreThanValueAndClockAreWrittenAnew() async throws {
    let cases = [
      (
        #"{"*":"\#(Self.hlc)","place":{"value":"Ulm","note":{"a":[1,2]}}}"#,
        #"{"place":{"hlc":"\#(Self.hlc)","value":"Ulm"}}"#
      ),
      (
        #"{"*":"\#(Self.hlc)","place":{"value":"Ulm","value":"Bonn"}}"#,
        #"{"place":{"hlc":"\#(Self.hlc)","value":"Bonn"}}"#
      ),
      (
        #"{"place":{"hlc":"\#(Self.other)","hlc":"\#(Self.hlc)","value":"Ulm"}}"#,
        #"{"place":{"hlc":"\#(Self.hlc)","value":"Ulm"}}"#
      ),
      // An older device's clock in every field: stored, and sent on, sharing it.
      (
        #"{"kind":{"hlc":"\#(Self.hlc)","value":"plasma"},"place":{"hlc":"\#(Self.hlc)","value":"Ulm"}}"#,
        #"{"*":"\#(Self.hlc)","kind":{"value":"plasma"},"place":{"value":"Ulm"}}"#
      ),
    ]
    try await withServer { client in
      for (index, (sent, kept)) in cases.enumerated() {
        let token = try await Self.logIn(client, "ann\(index)@example.org")
        try await Self.push(client, token: token, fields: sent)
        #expect(try await Self.pulledFields(client, token: token) == kept, "\(sent)")
      }
    }
  }

  /// A name checked in the change before is taken again only at its own place: a bad name after
  /// good ones is refused all the same, and nothing of the request is kept.
  @Test func aBadFieldNameAfterGoodOnesIsRefused() async throws {
    try await withServer { client in
      let token = try await Self.logIn(client)
      let good = #"{"kind":{"hlc":"\#(Self.hlc)","value":"plasma"}}"#
      for bad in ["Kind", "account_id", "kind place"] {
        let push = #"""
          {"since":null,"changes":[{"dataset":"donation","id":"d1","fields":\#(good)},\#
          {"dataset":"donation","id":"d2","fields":{"\#(bad)":{"hlc":"\#(Self.hlc)","value":"x"}}}]}
          """#
        let refused = try await client.execute(
          uri: "/v1/sync", method: .post, headers: Self.bearer(token), body: Self.body(push))
        #expect(refused.status == .badRequest, "\(bad): \(String(buffer: refused.body))")
        #expect(String(buffer: refused.body).contains("has no field"), "\(bad)")
      }
      let answer = try await client.execute(
        uri: "/v1/sync", method: .post, headers: Self.bearer(token),
        body: Self.body(#"{"since":null,"changes":[]}"#))
      #expect(String(buffer: answer.body).contains(#""changes":[]"#))
    }
  }
}
