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

  /// The node is read from the clock's text: clocks of the same moment order by it, and a clock
  /// read from text is the one made from its parts (equal, one hash).
  @Test func clocksOfOneMomentOrderByTheirNode() throws {
    let (ms, counter) = (Int64(1_795_000_000_123), 7)
    let low = HLC(milliseconds: ms, counter: counter, node: "0000000000000001")
    let high = HLC(milliseconds: ms, counter: counter, node: "00000000000000f0")
    #expect(low.node == "0000000000000001" && high.node == "00000000000000f0")
    #expect(low < high && !(high < low) && low != high)
    let read = try #require(HLC(high.description))
    #expect(read.node == "00000000000000f0" && read == high && !(read < high) && !(high < read))
    #expect(Set([read, high, low]).count == 2)
    // Nodes of other lengths (made by hand, never read from the wire) still order as their text.
    for (a, b) in [("a", "ab"), ("ab", "b"), ("device-1", "device-10"), ("z", "0000000000000001")] {
      let (x, y) = (HLC(milliseconds: ms, counter: counter, node: a), HLC(milliseconds: ms, counter: counter, node: b))
      #expect((x < y) == (a < b) && (y < x) == (b < a) && x != y, "\(a) \(b)")
      #expect(x.node == a && y.node == b)
    }
    // Time and counter come before the node.
    #expect(
      HLC(milliseconds: ms, counter: counter, node: "ffffffffffffffff") < HLC(milliseconds: ms, counter: 8, node: "0"))
    #expect(HLC(milliseconds: ms, counter: 9, node: "f") < HLC(milliseconds: ms + 1, counter: 0, node: "0"))
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
