import Foundation
import Testing

@testable import Sync

/// A record's fields sharing one clock travel and are stored with it once (`"*"`); a field with
/// another clock names its own. Both readers take both forms, and an older device is answered
/// with a clock in every field.
@Suite struct SharedClocksTests {
  let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"
  let other = "2026-11-23T08:00:00.000Z-0003-fedcba9876543210"

  var donation: WireFields {
    [
      "kind": WireField(value: .string("whole-blood"), hlc: hlc), "notes": WireField(value: .null, hlc: hlc),
      "place": WireField(value: .string("DRK \"Mitte\""), hlc: other),
      "hb_g_dl": WireField(value: .double(13.5), hlc: hlc),
    ]
  }

  @Test func theClockMostFieldsHaveIsWrittenOnce() throws {
    let text = WireJSON.encode(donation)
    #expect(
      text
        == #"{"*":"\#(hlc)","hb_g_dl":{"value":13.5},"kind":{"value":"whole-blood"},"notes":{"value":null},"place":{"hlc":"\#(other)","value":"DRK \"Mitte\""}}"#
    )
    #expect(try WireJSON.fields(text) == donation)
    #expect(try JSONDecoder().decode(WireFields.self, from: Data(text.utf8)) == donation)
    var full = WireJSON.FieldsWriter(sharedClocks: false)
    let perField = full.encode(donation)
    #expect(!perField.contains("\"*\""))
    #expect(try WireJSON.fields(perField) == donation)
    // A record written at once: all its fields share the clock, and it takes half or less.
    var uniform = donation
    uniform["place"]?.hlc = hlc
    let shared = WireJSON.encode(uniform).utf8.count
    let each = full.encode(uniform).utf8.count
    #expect(shared * 2 <= each, "\(shared) against \(each) bytes")
  }

  @Test func noClockIsSharedWhenNoneRepeats() {
    let one: WireFields = ["a": WireField(value: .int(1), hlc: hlc)]
    #expect(WireJSON.encode(one) == #"{"a":{"hlc":"\#(hlc)","value":1}}"#)
    let two: WireFields = ["a": WireField(value: .int(1), hlc: hlc), "b": WireField(value: .int(2), hlc: other)]
    #expect(!WireJSON.encode(two).contains("\"*\""))
    // Of two clocks each on two fields, the first.
    let tie: WireFields = [
      "a": WireField(value: .int(1), hlc: other), "b": WireField(value: .int(2), hlc: hlc),
      "c": WireField(value: .int(3), hlc: hlc), "d": WireField(value: .int(4), hlc: other),
    ]
    #expect(WireJSON.encode(tie).hasPrefix(#"{"*":"\#(other)","a":{"value":1},"b":{"hlc":"#))
  }

  /// Both readers (the fast one and JSONDecoder, which says what is wrong with a request the
  /// fast one refuses) take the shared clock wherever it stands among the fields.
  @Test(arguments: [
    (#"{"a":{"value":1},"*":"c1","b":{"hlc":"c2","value":2}}"#, ["a": "c1", "b": "c2"]),
    (#"{"*":"c1","a":{"value":1},"b":{"value":null}}"#, ["a": "c1", "b": "c1"]),
    (#"{"b":{"value":2},"a":{"hlc":"c2","value":1},"*":"c1"}"#, ["a": "c2", "b": "c1"]),
  ])
  func bothReadersTakeTheSharedClockWhereverItStands(text: String, clocks: [String: String]) throws {
    let fast = try WireJSON.fields(text)
    #expect(fast.mapValues(\.hlc) == clocks)
    #expect(fast == (try JSONDecoder().decode(WireFields.self, from: Data(text.utf8))))
  }

  @Test(arguments: [
    #"{"a":{"value":1}}"#,
    #"{"*":"c1","*":"c1","a":{"value":1}}"#,
    #"{"*":1,"a":{"value":1}}"#,
    #"{"*":"c1","a":{"hlc":"c1"}}"#,
    // A shared clock that no field takes would go unchecked.
    #"{"*":"c1"}"#,
    #"{"*":"","a":{"hlc":"c2","value":1}}"#,
    #"{"*":null}"#,
    #"{"*":"c1","a":{"hlc":null,"value":1}}"#,
    // A field named twice: which one counts would be a guess (and its clock with it).
    #"{"a":{"value":1},"a":{"hlc":"c2","value":2},"*":"c1"}"#,
    #"{"a":{"hlc":"c1","value":1},"a":{"hlc":"c1","value":1}}"#,
  ])
  func aFieldWithoutAClockOrABadSharedOneIsRefused(text: String) {
    #expect(throws: WireJSON.Malformed.self) { _ = try WireJSON.fields(text) }
  }

  @Test(arguments: [
    #"{"a":{"value":1}}"#, #"{"*":"c1"}"#, #"{"*":"c1","a":{"hlc":"c2","value":1}}"#, #"{"*":null}"#,
    #"{"*":"c1","a":{"hlc":null,"value":1}}"#,
  ])
  func jsonDecoderRefusesThemToo(text: String) {
    #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(WireFields.self, from: Data(text.utf8)) }
  }

  @Test func aChangeIsWrittenAgainWithAClockInEveryFieldForAnOlderDevice() throws {
    var out = Array(#"{"dataset":"donation","id":"d\"1","fields":"#.utf8)
    var writer = WireJSON.FieldsWriter()
    writer.append(donation, to: &out)
    out.append(UInt8(ascii: "}"))
    let change = String(decoding: out, as: UTF8.self)
    let older = try WireJSON.withClockPerField(change)
    #expect(!older.contains("\"*\""))
    let object = try JSONSerialization.jsonObject(with: Data(older.utf8)) as? [String: Any]
    let fields = try #require(object?["fields"] as? [String: [String: Any]])
    #expect(fields.count == 4 && fields.values.allSatisfy { $0["hlc"] is String })
    #expect(fields["place"]?["hlc"] as? String == other && fields["kind"]?["hlc"] as? String == hlc)
    #expect(object?["id"] as? String == "d\"1")
    // A key written with escapes is read as what it is.
    let escaped = #"{"dataset":"donation","id":"d1","fields":{"\u002a":"c1","a":{"value":1},"b":{"value":2}}}"#
    #expect(
      try WireJSON.withClockPerField(escaped)
        == #"{"dataset":"donation","id":"d1","fields":{"a":{"hlc":"c1","value":1},"b":{"hlc":"c1","value":2}}}"#)
  }

  @Test func aRequestSaysWhetherItsDeviceReadsSharedClocks() throws {
    let change = WireChange(dataset: "donation", id: "d1", fields: donation)
    // A request says the device reads them; it writes them only where told it may.
    let plain = WireJSON.encode(SyncRequest(since: nil, changes: [change]))
    #expect(try WireJSON.syncRequest(plain).sharedClocks)
    #expect(!String(decoding: plain, as: UTF8.self).contains(#""*""#))
    let newer = WireJSON.encode(since: nil, keyID: nil, changes: WireJSON.encode([change], sharedClocks: true))
    #expect(try WireJSON.syncRequest(newer).sharedClocks)
    #expect(try JSONDecoder().decode(SyncRequest.self, from: newer).sharedClocks)
    #expect(String(decoding: newer, as: UTF8.self).contains(#""*":"#))
    #expect(try WireJSON.syncRequest(newer).changes == [change])
    let older = WireJSON.encode(SyncRequest(since: nil, changes: [change], sharedClocks: false))
    #expect(!String(decoding: older, as: UTF8.self).contains(#""*""#))
    #expect(try !WireJSON.syncRequest(older).sharedClocks)
    #expect(try !JSONDecoder().decode(SyncRequest.self, from: older).sharedClocks)
    // Either reader refuses a flag that is not one.
    let null = Data(#"{"changes":[],"shared_clocks":null}"#.utf8)
    #expect(throws: WireJSON.Malformed.self) { _ = try WireJSON.syncRequest(null) }
    #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(SyncRequest.self, from: null) }
    #expect(try WireJSON.syncRequest(older).changes == [change])
  }

  @Test func anAnswerSaysWhetherItsServerReadsThem() throws {
    let answer = #"{"accepted":0,"changes":[],"cursor":"e:1","has_more":false"#
    #expect(try WireJSON.syncResponse(Data((answer + #","shared_clocks":true}"#).utf8)).sharedClocks)
    #expect(try !WireJSON.syncResponse(Data((answer + "}").utf8)).sharedClocks)
  }
}
