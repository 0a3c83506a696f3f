import Foundation
import Sync
import Testing

@testable import SyncHTTP

/// The sync loop's transitions, without a network: each row is a loop in some state, an event,
/// the action it decides and the state it is left in.
@Suite struct SyncLoopTests {
  static let limits = SyncLimits(bodyBytes: 1_000_000, valueBytes: 100_000)
  static let a = SyncLoop.Sent(wireDataset: "donation", wireID: "w-a", dataset: "donation", id: "a")
  static let b = SyncLoop.Sent(wireDataset: "period", wireID: "w-b", dataset: "period", id: "b")
  static let noon = Date(timeIntervalSince1970: 1_790_000_000)

  enum Event {
    case refused(SyncError, [SyncLoop.Sent])
    case oversized(bytes: Int, [SyncLoop.Sent])
    case stated(SyncLimits)
    case failed(SyncError, hasKey: Bool)
  }

  struct Row: CustomTestStringConvertible {
    var name: String
    /// Events before the one under test, to put the loop in its state.
    var before: [Event] = []
    var event: Event
    var action: SyncLoop.Action?
    var budget = 500_000
    var resyncs = 0
    var restamps = 0
    var recovered = false
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    // Pull pages and pushes that go through leave the loop as it was.
    Row(name: "limits stated larger", event: .stated(SyncLimits(bodyBytes: 4_000_000, valueBytes: 1)), action: nil),
    Row(
      name: "limits stated smaller", event: .stated(SyncLimits(bodyBytes: 200_000, valueBytes: 1)), action: nil,
      budget: 100_000),
    // Resync: everything again the first time, the cursor alone the second, then it fails.
    Row(name: "resync", event: .refused(.resyncRequired, [a]), action: .resync(requeue: true), resyncs: 1),
    Row(
      name: "second resync", before: [.refused(.resyncRequired, [])], event: .refused(.resyncRequired, []),
      action: .resync(requeue: false), resyncs: 2),
    Row(
      name: "third resync", before: [.refused(.resyncRequired, []), .refused(.resyncRequired, [])],
      event: .refused(.resyncRequired, []), action: .fail(.resyncRequired), resyncs: 2),
    // Restamp: once.
    Row(name: "clock ahead", event: .refused(.clockAhead(noon), [a]), action: .restamp(after: noon), restamps: 1),
    Row(
      name: "clock ahead again", before: [.refused(.clockAhead(noon), [a])], event: .refused(.clockAhead(noon), [a]),
      action: .fail(.clockAhead(noon)), restamps: 1),
    // Set aside: the record the server names, or the only one; else send less at a time.
    Row(
      name: "value too large, named", event: .refused(.tooLarge("too big", dataset: "period", id: "w-b"), [a, b]),
      action: .setAside(dataset: "period", id: "b", reason: "the server refused it: too big", bytes: 0)),
    Row(
      name: "request too large, one record", event: .refused(.tooLarge("too big", dataset: nil, id: nil), [a]),
      action: .setAside(dataset: "donation", id: "a", reason: "the server refused it: too big", bytes: 0)),
    Row(
      name: "request too large, several", event: .refused(.tooLarge("too big", dataset: nil, id: nil), [a, b]),
      action: .shrink, budget: 250_000),
    Row(
      name: "too large on a pull", event: .refused(.tooLarge("too big", dataset: nil, id: nil), []),
      action: .fail(.tooLarge("too big", dataset: nil, id: nil))),
    Row(
      name: "refused value",
      event: .refused(.recordRefused("hb: out of range", dataset: "donation", id: "w-a"), [a, b]),
      action: .setAside(
        dataset: "donation", id: "a", reason: "a value the server's rules refuse: hb: out of range", bytes: 0)),
    Row(
      name: "refused value not sent", event: .refused(.recordRefused("x", dataset: "donation", id: "w-z"), [a]),
      action: .fail(.recordRefused("x", dataset: "donation", id: "w-z"))),
    Row(
      name: "encoded over the limit, several", event: .oversized(bytes: 1_200_000, [a, b]), action: .shrink,
      budget: 250_000),
    Row(
      name: "encoded over the limit, alone", event: .oversized(bytes: 1_200_000, [a]),
      action: .setAside(
        dataset: "donation", id: "a",
        reason: "it takes 1.1 MiB to send, more than the server takes in a request (976 KiB)", bytes: 1_200_000)),
    Row(
      name: "shrinking stops at one byte",
      before: Array(repeating: .oversized(bytes: 2, [a, b]), count: 25), event: .oversized(bytes: 2, [a, b]),
      action: .shrink, budget: 1),
    Row(
      name: "other refusal", event: .refused(.http(status: 500, message: "x"), [a]),
      action: .fail(.http(status: 500, message: "x"))),
    // A whole sync: rotate (unlock), unlock, send everything again: once.
    Row(
      name: "key rotated", event: .failed(.keyRotated, hasKey: true), action: .unlock(rotated: true), recovered: true),
    Row(
      name: "encrypted, no key", event: .failed(.encrypted, hasKey: false), action: .unlock(rotated: false),
      recovered: true),
    Row(name: "encrypted, with a key", event: .failed(.encrypted, hasKey: true), action: .fail(.encrypted)),
    Row(name: "key missing", event: .failed(.keyMissing, hasKey: true), action: .resendEverything, recovered: true),
    Row(
      name: "rotated after a recovery", before: [.failed(.keyMissing, hasKey: true)],
      event: .failed(.keyRotated, hasKey: true), action: .fail(.keyRotated), recovered: true),
    Row(
      name: "unreachable", event: .failed(.unreachable("u", reason: "r"), hasKey: false),
      action: .fail(.unreachable("u", reason: "r"))),
  ]

  @discardableResult
  static func send(_ event: Event, to loop: inout SyncLoop) -> SyncLoop.Action? {
    switch event {
    case .refused(let error, let sent): return loop.refused(error, sent: sent)
    case .oversized(let bytes, let sent): return loop.oversized(bytes: bytes, limit: limits.bodyBytes, sent: sent)
    case .stated(let stated):
      loop.stated(stated)
      return nil
    case .failed(let error, let hasKey): return loop.failed(error, hasKey: hasKey)
    }
  }

  @Test(arguments: rows) func transition(_ row: Row) {
    var loop = SyncLoop(limits: Self.limits)
    for event in row.before { Self.send(event, to: &loop) }
    #expect(Self.send(row.event, to: &loop) == row.action)
    #expect(loop.budget == row.budget)
    #expect(loop.resyncs == row.resyncs)
    #expect(loop.restamps == row.restamps)
    #expect(loop.recovered == row.recovered)
  }

  /// When held pages are written, and when a sync is done.
  @Test func pagesAreWrittenAndTheSyncEnds() {
    func writes(
      pushed: Bool = false, hasMore: Bool = true, sealed: Bool = false, held: Int = 10, exhausted: Bool = false
    )
      -> Bool
    {
      SyncLoop.writesNow(
        pushed: pushed, hasMore: hasMore, sealed: sealed, held: held, heldLimit: 100, exhausted: exhausted)
    }
    #expect(!writes(), "pages of a pull in the clear wait for more")
    #expect(writes(pushed: true), "an acknowledged batch is written")
    #expect(writes(hasMore: false), "the last page is written")
    #expect(writes(sealed: true), "sealed pages are written one by one")
    #expect(writes(held: 100), "enough held")
    #expect(writes(exhausted: true), "a sync that must stop writes what it has")
    #expect(SyncLoop.finished(pushed: false, hasMore: false))
    #expect(!SyncLoop.finished(pushed: true, hasMore: false))
    #expect(!SyncLoop.finished(pushed: false, hasMore: true))
  }
}
