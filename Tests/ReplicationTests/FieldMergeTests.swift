import Foundation
import Replication
import Testing

/// The merge rule every device and the server share: a field is taken when its clock is higher.
@Suite struct FieldMergeTests {
  static let early = HLC(milliseconds: 1_795_000_000_123, counter: 0, node: "0000000000000001")
  static let late = HLC(milliseconds: 1_795_000_000_124, counter: 0, node: "0000000000000000")

  @Test func aHigherClockWinsByTheClockAndByItsText() {
    #expect(FieldMerge.wins(Self.late, over: Self.early))
    #expect(!FieldMerge.wins(Self.early, over: Self.late))
    #expect(!FieldMerge.wins(Self.late, over: Self.late), "the same change twice changes nothing")
    #expect(FieldMerge.wins(Self.early, over: nil))
    #expect(FieldMerge.wins(Self.late.description, over: Self.early.description))
    #expect(!FieldMerge.wins(Self.early.description, over: Self.late.description))
  }

  @Test func recordsMergeFieldByField() {
    let current = ["a": ("old a", Self.late), "b": ("old b", Self.early)]
    let incoming = ["a": ("new a", Self.early), "b": ("new b", Self.late), "c": ("new c", Self.early)]
    let merged = FieldMerge.merge(current, incoming, clock: \.1)
    #expect(merged?.mapValues(\.0) == ["a": "old a", "b": "new b", "c": "new c"])
    #expect(FieldMerge.merge(current, current, clock: \.1) == nil, "nothing newer: nothing changed")
    #expect(FieldMerge.merge([:], incoming, clock: \.1)?.count == 3, "a new record is what came")
    #expect(FieldMerge.merge([String: (String, HLC)](), [:], clock: \.1) == nil)
  }
}
