import Foundation
import Replication
import Storage
import Testing

@testable import Sync

@Suite struct HLCTests {
  @Test func textRoundTripsAndSortsLikeTheClock() throws {
    let a = HLC(milliseconds: 1_795_000_000_123, counter: 0, node: "0123456789abcdef")
    let b = HLC(milliseconds: 1_795_000_000_123, counter: 1, node: "0000000000000000")
    let c = HLC(milliseconds: 1_795_000_000_124, counter: 0, node: "0000000000000000")
    #expect(a.description == "2026-11-18T11:06:40.123Z-0000-0123456789abcdef")
    #expect(HLC(a.description) == a)
    #expect(a < b && b < c)
    #expect(a.description < b.description && b.description < c.description)
  }

  @Test func malformedReadingsAreRefused() {
    for text in [
      "", "2026-11-18T11:06:40.123Z", "2026-11-18T11:06:40.123Z-0000-0123456789ABCDEF",
      "2026-11-18T11:06:40.123Z-000g-0123456789abcdef", "2026-11-18T11:06:40Z-0000-0123456789abcdef00000",
      "2026-02-30T11:06:40.123Z-0000-0123456789abcdef",
    ] {
      #expect(HLC(text) == nil, "\(text)")
    }
  }

  @Test func nextNeverGoesBackEvenWhenTheWallClockDoes() {
    let node = "00000000000000aa"
    let first = HLC.next(after: nil, now: Date(timeIntervalSince1970: 100), node: node)
    let second = HLC.next(after: first, now: Date(timeIntervalSince1970: 50), node: node)
    let third = HLC.next(after: second, now: Date(timeIntervalSince1970: 100), node: node)
    #expect(first < second && second < third)
  }

  @Test func theMergeTakesTheHigherClockAndIgnoresRepeats() {
    let early = WireField(value: .string("early"), hlc: "2026-11-18T11:06:40.123Z-0000-0000000000000001")
    let late = WireField(value: .string("late"), hlc: "2026-11-18T11:06:40.124Z-0000-0000000000000000")
    #expect(ServerMergeProbe.merge(["f": early], ["f": late])?["f"] == late)
    #expect(ServerMergeProbe.merge(["f": late], ["f": early]) == nil)
    #expect(ServerMergeProbe.merge(["f": late], ["f": late]) == nil, "the same change twice changes nothing")
  }
}

/// The client-side rule, FieldMerge, checked against the same cases the server's merge sees.
enum ServerMergeProbe {
  static func merge(_ current: [String: WireField], _ incoming: [String: WireField]) -> [String: WireField]? {
    var merged = current
    var changed = false
    for (name, field) in incoming {
      let new = HLC(field.hlc)!
      if FieldMerge.wins(new, over: merged[name].flatMap { HLC($0.hlc) }) {
        merged[name] = field
        changed = true
      }
    }
    return changed ? merged : nil
  }
}
