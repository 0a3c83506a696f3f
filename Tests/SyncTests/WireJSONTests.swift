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

  @Test func requestsAndStoredFieldsRoundTripThroughTheFastWriterAndReader() throws {
    let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"
    let awkward = "quote \" backslash \\ newline \n tab \t bell \u{7} slash / emoji 🩸 ü"
    let fields: WireFields = [
      "place": WireField(value: .string(awkward), hlc: hlc), "notes": WireField(value: .null, hlc: hlc),
      "n": WireField(value: .int(-9_007_199_254_740_993), hlc: hlc), "w": WireField(value: .double(62.5), hlc: hlc),
      "tiny": WireField(value: .double(1e-5), hlc: hlc), "ok": WireField(value: .bool(true), hlc: hlc),
    ]
    let request = SyncRequest(
      since: "abc:1", changes: [WireChange(dataset: "donation", id: "id \"1\"", fields: fields)])
    let data = WireJSON.encode(request)
    // Valid JSON by Foundation's reader too, with the same content.
    let decoded = try JSONDecoder().decode(SyncRequest.self, from: data)
    #expect(decoded.since == "abc:1" && decoded.changes == request.changes)
    let fast = try WireJSON.syncRequest(data)
    #expect(fast.since == "abc:1" && fast.changes == request.changes)
    #expect(try WireJSON.fields(WireJSON.encode(fields)) == fields)
    #expect(try WireJSON.syncRequest(Data("{\"changes\":[]}".utf8)).since == nil)
  }

  /// A request written around changes encoded ahead (as a device does while the server merges
  /// the request before) reads as the request it is, whatever its cursor, key id and changes.
  @Test(arguments: [0, 1, 3])
  func requestsAroundChangesEncodedAheadReadBack(count: Int) throws {
    let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"
    let changes = (0..<count).map { i in
      WireChange(
        dataset: i == 2 ? "blob" : "donation", id: "id-\(i) \"q\"",
        fields: [
          "place": WireField(value: .string("Centre \(i)\n"), hlc: hlc),
          "n": WireField(value: .int(Int64(i)), hlc: hlc),
        ])
    }
    for (since, keyID) in [(nil, nil), ("e1:42", nil), ("e1:43", "k\"1")] as [(String?, String?)] {
      let data = WireJSON.encode(since: since, keyID: keyID, changes: WireJSON.encode(changes, sharedClocks: false))
      #expect(data == WireJSON.encode(SyncRequest(since: since, changes: changes, keyID: keyID)))
      let decoded = try JSONDecoder().decode(SyncRequest.self, from: data)
      #expect(decoded.since == since && decoded.keyID == keyID && decoded.changes == changes)
      let fast = try WireJSON.syncRequest(data)
      #expect(fast.since == since && fast.keyID == keyID && fast.changes == changes)
    }
  }

  /// Clocks repeated from one field to the next are read as one String; a clock that differs, or
  /// whose text needs escapes, is read as written (as JSONDecoder reads it).
  @Test(arguments: [
    #"{"a":{"hlc":"c1","value":1},"b":{"hlc":"c1","value":2},"c":{"hlc":"c2","value":3}}"#,
    #"{"a":{"hlc":"c\"1","value":1},"b":{"hlc":"c\"1","value":2},"c":{"hlc":"c\"","value":3}}"#,
    #"{"a":{"hlc":"c1","value":1},"b":{"hlc":"c12","value":2},"c":{"hlc":"c","value":3}}"#,
    #"{"a":{"value":1, "hlc" : "c1"},"b":{"hlc":  "c1" ,"value":2}}"#,
    // Raw, the second clock starts with the first one's text, which ends in a backslash.
    #"{"a":{"hlc":"c\\","value":1},"b":{"hlc":"c\"x","value":2}}"#,
  ])
  func repeatedClocksReadAsWritten(text: String) throws {
    let expected = try JSONDecoder().decode(WireFields.self, from: Data(text.utf8))
    #expect(try WireJSON.fields(text) == expected)
  }

  /// Keys are compared as bytes and field names kept from the record before: a key written with
  /// escapes reads as what it decodes to, and a name at the same place as the record before's
  /// but different is read as itself.
  @Test func keysWithEscapesAndNamesThatChangeFromRecordToRecord() throws {
    let text = #"""
      {"accepted":0,"changes":[
      {"dataset":"d","id":"1","fields":{"a":{"hlc":"h","value":1},"b":{"hlc":"h","value":2}}},
      {"dataset":"d","id":"2","fields":{"a":{"hlc":"h","value":3},"bb":{"hlc":"h","value":4},"c":{"value":5,"hlc":"h"}}},
      {"\u0064ataset":"d","i\u0064":"3","fields":{"\u0061":{"\u0068lc":"h","valu\u0065":6},"b\"q":{"hlc":"h","value":7}}},
      {"dataset":"d","id":"4","fields":{}}],"cursor":"c","has_more":false}
      """#
    let changes = try WireJSON.syncResponse(Data(text.utf8)).changes
    #expect(changes.map(\.id) == ["1", "2", "3", "4"])
    #expect(
      changes.map { $0.fields.mapValues(\.value) } == [
        ["a": .int(1), "b": .int(2)], ["a": .int(3), "bb": .int(4), "c": .int(5)], ["a": .int(6), "b\"q": .int(7)], [:],
      ])
    #expect(throws: (any Error).self) {
      try WireJSON.syncResponse(
        Data(
          #"{"changes":[{"dataset":"d","id":"1","fields":{"a":{"hlc":"h","value":[1]}}}],"cursor":"c","has_more":false}"#
            .utf8))
    }
  }

  /// A field whose name sorts after the one before it, as it did in the record before, is put at
  /// the end without a comparison: fields out of order, names that change, and a name twice
  /// after either are still read as the reader that compares each would.
  @Test func fieldsInAnyOrderAreHeldInNameOrderAndANameTwiceIsRefused() throws {
    func change(_ id: Int, _ names: [String]) -> String {
      let fields = names.enumerated().map { #""\#($1)":{"value":\#($0)}"# }.joined(separator: ",")
      return #"{"dataset":"d","id":"\#(id)","fields":{"*":"h",\#(fields)}}"#
    }
    func page(_ changes: [[String]]) -> Data {
      let list = changes.enumerated().map { change($0, $1) }.joined(separator: ",")
      return Data(#"{"changes":[\#(list)],"cursor":"c","has_more":false}"#.utf8)
    }
    let orders = [
      ["a", "b", "c"], ["b", "a", "c"], ["a", "b", "c"], ["b", "c"], ["b", "a"], ["a", "c", "b"], ["c"],
    ]
    let changes = try WireJSON.syncResponse(page(orders)).changes
    #expect(changes.map(\.fields.keys) == orders.map { $0.sorted() })
    for (change, names) in zip(changes, orders) {
      #expect(names.enumerated().allSatisfy { change.fields[$1]?.value == .int(Int64($0)) })
    }
    for twice in [["a", "b", "b"], ["b", "a", "b"], ["a", "c", "c"], ["c", "a", "c"]] {
      #expect(throws: WireJSON.Malformed.self, "\(twice)") { _ = try WireJSON.syncResponse(page(orders + [twice])) }
      #expect(throws: WireJSON.Malformed.self, "\(twice)") { _ = try WireJSON.syncResponse(page([twice])) }
    }
  }

  /// Each change's fields object as written, where it holds nothing but fields sharing a clock:
  /// escapes and spaces stay; a member beside value and clock, one named twice, or a clock in
  /// each of several fields gives none.
  @Test func aRequestKeepsEachChangesFieldsAsSentWhenTheyAreNothingButFields() throws {
    let plain = #"{ "*" : "h", "pl\u0061ce": {"value": "Caf\u00e9"}, "n": {"hlc": "g", "value": 2} }"#
    let others = [
      #"{"place":{"hlc":"h","value":1,"extra":null}}"#,
      #"{"place":{"hlc":"h","value":1,"value":2}}"#,
      #"{"place":{"hlc":"h","hlc":"g","value":1}}"#,
      #"{"n":{"hlc":"h","value":1},"place":{"hlc":"h","value":1}}"#,
    ]
    let changes = ([plain] + others).enumerated().map { #"{"id":"r\#($0)","fields":\#($1),"dataset":"donation"}"# }
    let text = #"{"since":null,"changes":[\#(changes.joined(separator: ",\n "))]}"#
    let request = try WireJSON.syncRequest(Data(text.utf8))
    #expect(request.sentFields == [plain, nil, nil, nil, nil])
    #expect(request.changes[0].fields["place"] == WireField(value: .string("Café"), hlc: "h"))
    #expect(request.changes[2].fields["place"]?.value == .int(2))
    #expect(request.changes[3].fields["place"]?.hlc == "g")
  }

  /// Fields as the writers write them are read on a shorter path than any other text: the two
  /// read the same fields, and refuse the same values.
  @Test func fieldsAsWrittenAndOtherwiseReadAlike() throws {
    let written =
      #"{"*":"h","a":{"value":"x\"y"},"b":{"hlc":"g","value":-2},"c":{"value":1.5},"d":{"value":null},"e":{"hlc":"h","value":true}}"#
    let spaced =
      #"{ "e": {"value": true, "hlc": "h"}, "d": {"value": null}, "c": {"value": 1.5 }, "b": {"value": -2, "hlc": "g"}, "a": { "value": "x\"y" }, "*": "h" }"#
    let fields = try WireJSON.fields(written)
    #expect(try WireJSON.fields(spaced) == fields)
    #expect(fields["a"] == WireField(value: .string("x\"y"), hlc: "h"))
    #expect(fields["b"] == WireField(value: .int(-2), hlc: "g"))
    #expect(fields["e"] == WireField(value: .bool(true), hlc: "h"))
    // The last of a value named twice, and a member beside value and clock passed over.
    #expect(try WireJSON.fields(#"{"a":{"value":1,"value":2,"hlc":"h"}}"#)["a"]?.value == .int(2))
    #expect(try WireJSON.fields(#"{"a":{"hlc":"h","value":1,"note":[1]}}"#)["a"] == WireField(value: .int(1), hlc: "h"))
    for bad in [
      #"{"a":{"hlc":"h","value":[1]}}"#, #"{"a":{"hlc":"h","value":{"x":1}}}"#, #"{"a":{"hlc":1,"value":2}}"#,
      #"{"a":{"hlc":"h","value":tru}}"#, #"{"a":{"hlc":"h","value":"open}}"#, #"{"*":"h","a":{"value":}}"#,
    ] {
      #expect(throws: WireJSON.Malformed.self, "\(bad)") { _ = try WireJSON.fields(bad) }
    }
  }

  @Test func aClockThatIsNotTextIsRefusedAfterOneThatIs() {
    #expect(throws: WireJSON.Malformed.self) {
      _ = try WireJSON.fields(#"{"a":{"hlc":"c1","value":1},"b":{"hlc":1,"value":2}}"#)
    }
  }

  /// What the fast reader refuses goes to JSONDecoder, whose error names the place.
  @Test func theFastRequestReaderRefusesWhatIsNotASyncRequest() {
    let hlc = "\"hlc\":\"2026-11-22T10:00:00.000Z-0000-0123456789abcdef\""
    for text in [
      "{}", "{\"changes\":{}}", "{\"since\":3,\"changes\":[]}",
      "{\"changes\":[{\"dataset\":\"donation\",\"id\":\"x\"}]}",
      "{\"changes\":[{\"dataset\":\"donation\",\"id\":\"x\",\"fields\":{\"place\":{\"value\":{},\(hlc)}}}]}",
      "{\"changes\":[{\"dataset\":\"donation\",\"id\":\"x\",\"fields\":{\"place\":{\"value\":[1],\(hlc)}}}]}",
      "{\"changes\":[]} trailing", "[1]",
    ] {
      #expect(throws: WireJSON.Malformed.self, "\(text)") { _ = try WireJSON.syncRequest(Data(text.utf8)) }
    }
  }
}
