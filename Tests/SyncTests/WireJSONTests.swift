import Foundation
import Testing

@testable import Sync

@Suite struct WireJSONTests {
  @Test func readsWhatTheServerWrites() throws {
    let text = """
      {"accepted":1,"changes":[{"dataset":"donation","id":"d\\"1","fields":{"place":{"hlc":"h","value":"Caf\\u00e9 \\ud83e\\ude78 \\n"},
      "eligible":{"value":true,"hlc":"h2"},"weight_kg":{"value":61.5,"hlc":"h3"},"notes":{"value":null,"hlc":"h4"},
      "n":{"value":-42,"hlc":"h5"}}}],"cursor":"abc:7","has_more":true}
      """
    let response = try WireJSON.syncResponse(Data(text.utf8))
    #expect(response.cursor == "abc:7" && response.hasMore && response.accepted == 1)
    let change = try #require(response.changes.first)
    #expect(change.id == "d\"1")
    #expect(change.fields["place"] == WireField(value: .string("Café 🩸 \n"), hlc: "h"))
    #expect(change.fields["eligible"]?.value == .bool(true))
    #expect(change.fields["weight_kg"]?.value == .double(61.5))
    #expect(change.fields["notes"]?.value == .null)
    #expect(change.fields["n"]?.value == .int(-42))
  }

  @Test func agreesWithJSONDecoderOnARoundTrip() throws {
    let response = SyncResponse(
      changes: [
        WireChange(
          dataset: "profile", id: "p", fields: ["surname": WireField(value: .string("Ø \"q\" \\ /"), hlc: "x")])
      ], cursor: "e:1", hasMore: false, accepted: 0)
    let data = try JSONEncoder().encode(response)
    let parsed = try WireJSON.syncResponse(data)
    #expect(parsed.changes == response.changes && parsed.cursor == response.cursor)
  }

  @Test(arguments: [
    "", "{", "[]", "{\"changes\":[],\"cursor\":\"c\"}", "{\"changes\":[{}],\"cursor\":\"c\",\"has_more\":false}",
    "{\"changes\":[],\"cursor\":\"c\",\"has_more\":false} trailing",
    "{\"changes\":[{\"dataset\":\"d\",\"id\":\"i\",\"fields\":{\"f\":{\"value\":[1],\"hlc\":\"h\"}}}],\"cursor\":\"c\",\"has_more\":false}",
    "{\"changes\":[],\"cursor\":\"c\",\"has_more\":false,\"x\":\"\\ud800\"}",
  ])
  func malformedAnswersAreRefused(text: String) {
    #expect(throws: WireJSON.Malformed.self) { _ = try WireJSON.syncResponse(Data(text.utf8)) }
  }
}
