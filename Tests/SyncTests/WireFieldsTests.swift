import Foundation
import Replication
import Testing

@testable import Core
@testable import Sync

/// Fields held in name order behave as the dictionary they replace, and what reads, writes and
/// checks them one record after another (keeping what the record before named) gives what a
/// fresh reader, writer or check gives each record alone.
@Suite struct WireFieldsTests {
  let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"

  @Test func behaveAsADictionaryWhateverTheOrderOfWrites() {
    var dice = SystemRandomNumberGenerator()
    let names = ["a", "b", "ba", "c", "hb_g_dl", "kind", "_deleted", "z", "zz", "é", "e\u{301}"]
    for _ in 0..<200 {
      var fields = WireFields()
      var model: [String: WireField] = [:]
      for step in 0..<30 {
        let name = names.randomElement(using: &dice)!
        let field: WireField? =
          Int.random(in: 0..<4, using: &dice) == 0 ? nil : WireField(value: .int(Int64(step)), hlc: hlc)
        fields[name] = field
        model[name] = field
        #expect(fields.count == model.count)
        #expect(fields[name] == model[name])
      }
      #expect(fields.dictionary == model)
      #expect(fields == WireFields(model), "the same fields, written in any order, are equal")
      #expect(fields.keys == fields.keys.sorted(), "held in name order")
      #expect(Array(fields.map(\.key)) == fields.keys)
      #expect(fields.mapValues(\.value) == model.mapValues(\.value))
    }
  }

  @Test func travelAsAJSONObject() throws {
    let fields: WireFields = [
      "place": WireField(value: .string("Centre"), hlc: hlc), "kind": WireField(value: .null, hlc: hlc),
    ]
    let data = try JSONEncoder().encode(fields)
    #expect(try JSONDecoder().decode([String: WireField].self, from: data) == fields.dictionary)
    #expect(try JSONDecoder().decode(WireFields.self, from: data) == fields)
  }

  /// Records one after another, with names that come, go and change in between: one writer for
  /// them all writes what a writer each writes.
  @Test func oneWriterForManyRecordsWritesWhatAWriterEachWrites() throws {
    let records: [WireFields] = [
      ["a": WireField(value: .int(1), hlc: hlc), "b": WireField(value: .string("x"), hlc: hlc)],
      ["a": WireField(value: .int(2), hlc: hlc), "b": WireField(value: .string("y"), hlc: "h2")],
      ["a": WireField(value: .int(3), hlc: hlc)],
      ["a": WireField(value: .double(2.5), hlc: hlc), "c\"q": WireField(value: .bool(true), hlc: hlc)],
      [:],
      ["a": WireField(value: .null, hlc: hlc), "b": WireField(value: .string("z"), hlc: hlc)],
    ]
    var writer = WireJSON.FieldsWriter()
    for fields in records {
      var fresh = WireJSON.FieldsWriter()
      let text = writer.encode(fields)
      #expect(text == fresh.encode(fields))
      #expect(try WireJSON.fields(text) == fields)
    }
  }

  /// Integers read in place, without a String, read as Int64 reads their text; what does not
  /// fit is a Double, as before.
  @Test(arguments: [
    "0", "-0", "7", "-7", "10", "123456789012345678", "-123456789012345678", "999999999999999999",
    "9223372036854775807", "-9223372036854775808", "9223372036854775808", "12345678901234567890", "007", "-01",
    "1.5", "1e3", "-", "",
  ])
  func integersReadAsTheirText(text: String) {
    var bytes = Array(text.utf8)
    let read: JSONScanner.Node? = bytes.withUnsafeMutableBufferPointer { buffer in
      var p = JSONScanner(bytes: UnsafeBufferPointer(buffer))
      return try? p.number()
    }
    let integral = !text.contains(".") && !text.contains("e")
    switch read {
    case .int(let n)?: #expect(integral && Int64(text) == n)
    case .double(let d)?: #expect((!integral || Int64(text) == nil) && Double(text) == d)
    case nil: #expect(Double(text) == nil)
    default: Issue.record("\(text) read as \(String(describing: read))")
    }
  }

  /// Changes of two datasets and changing names, checked one after another by one check, are
  /// refused where a check each refuses them.
  @Test func oneRuleCheckForManyChangesRefusesWhatACheckEachRefuses() {
    let rules: [String: [String: FieldRule]] = [
      "donation": ["kind": .oneOf(["whole-blood", "plasma"]), "pulse_bpm": .integer(20...250)],
      "goal": ["kind": .text(maxBytes: 10)],
    ]
    func change(_ dataset: String, _ fields: [String: WireValue]) -> WireChange {
      WireChange(dataset: dataset, id: "x", fields: WireFields(fields.mapValues { WireField(value: $0, hlc: hlc) }))
    }
    let changes = [
      change("donation", ["kind": .string("plasma"), "pulse_bpm": .int(60)]),
      change("donation", ["kind": .string("platelets"), "pulse_bpm": .int(60)]),
      change("goal", ["kind": .string("platelets")]),
      change("goal", ["kind": .string("far too long a kind")]),
      change("donation", ["kind": .string("plasma"), "pulse_bpm": .int(600)]),
      change("donation", ["kind": .string("plasma")]),
      change("donation", ["pulse_bpm": .int(0), "_deleted": .int(1)]),
      change("unknown", ["kind": .int(3)]),
    ]
    var shared = RuleCheck(rules)
    var refused = 0
    for change in changes {
      let alone = Result { try change.check(rules: rules) }
      let together = Result { try shared.check(change) }
      #expect(String(describing: alone) == String(describing: together))
      if case .failure = alone { refused += 1 }
    }
    #expect(refused == 4)
  }
}
