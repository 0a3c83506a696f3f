import Foundation
import Sync
import TestServer
import Testing

@testable import SyncHTTP

/// The request for the page after the one being read ahead goes out only when the sync loop will
/// ask for that page, and is used only for the cursor it was sent with. Against servers that
/// always have more (`moving`: no records; `flood`: 200 donations a page), each answer's cursor
/// one past the one asked with, which count the requests they answered.
@Suite final class LookaheadTests {
  let folder: String
  let server: HostileServer

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-lookahead-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
    server = try HostileServer(folder: folder)
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  func answer(_ cursor: String, hasMore: Bool = true, bytes: Int = 100) -> SyncResponse {
    var response = SyncResponse(changes: [], cursor: cursor, hasMore: hasMore, accepted: 0)
    response.receivedBytes = bytes
    return response
  }

  /// A first sync of many pages asks for each once, through the request sent ahead or its own,
  /// and for none past its byte bound.
  @Test func aFirstSyncAsksForEachPageOnce() async throws {
    let device = try Device(email: "ann@example.org", url: server.url("flood"))
    try await device.login()
    let client = device.client
    client.heldRecords = 1
    // Pages of about 150 kB: the bound is passed at the fourteenth or so.
    client.maxPullBytes = 2 << 20
    var pages = 0
    do {
      _ = try await client.sync(token: device.token, cursor: nil) { pages = Int($0.dropFirst(3))! }
      Issue.record("the flood never stopped")
    } catch is SyncError {}
    #expect(pages >= 8)
    #expect(server.requests("flood") == pages)
  }

  /// A page read ahead sends the request for the one after it as soon as it came.
  @Test func aPageReadAheadAsksForTheNextOne() async throws {
    let url = server.url("moving")
    let lookahead = SyncClient.Lookahead()
    let page = SyncClient.prefetch(
      since: "e0:3", key: nil, url: url, token: "t", datasets: [], bounds: PullBounds(server: url.absoluteString),
      lookahead: lookahead)
    #expect(try await page.value.response.cursor == "e0:4")
    let next = try #require(lookahead.take(since: "e0:4"))
    #expect(try await next.value.cursor == "e0:5")
    #expect(server.requests("moving") == 2)
  }

  @Test func theNextPageIsAskedForOnceAndTakenForItsOwnCursorOnly() async throws {
    let url = server.url("moving")
    let bounds = PullBounds(server: url.absoluteString)
    let lookahead = SyncClient.Lookahead()
    lookahead.follow(answer("e0:4"), since: "e0:3", bounds: bounds, turn: 0, key: nil, url: url, token: "t")
    let request = try #require(lookahead.take(since: "e0:4"))
    // The server answers the request sent with e0:4: its cursor is e0:5.
    #expect(try await request.value.cursor == "e0:5")
    #expect(server.requests("moving") == 1)
    #expect(lookahead.take(since: "e0:4") == nil, "taken once")

    // One sent for another cursor than the loop goes on from is not used, and is gone.
    lookahead.follow(answer("e0:5"), since: "e0:4", bounds: bounds, turn: 0, key: nil, url: url, token: "t")
    #expect(lookahead.take(since: "e0:9") == nil)
    lookahead.follow(answer("e0:6"), since: "e0:5", bounds: bounds, turn: 0, key: nil, url: url, token: "t")
    lookahead.follow(answer("e0:7"), since: "e0:6", bounds: bounds, turn: 0, key: nil, url: url, token: "t")
    #expect(lookahead.take(since: "e0:6") == nil, "replaced by the one for e0:7")
    #expect(lookahead.take(since: "e0:7") == nil, "cancelled when e0:6 was asked for")
  }

  @Test func noRequestGoesOutForAPageTheLoopWillNotAskFor() async throws {
    let url = server.url("moving")
    let lookahead = SyncClient.Lookahead()
    let bounds = PullBounds(server: url.absoluteString, maxBytes: 1_000)
    func follow(_ response: SyncResponse, turn: Int = 0) -> Bool {
      lookahead.follow(response, since: "e0:3", bounds: bounds, turn: turn, key: nil, url: url, token: "t")
      return lookahead.take(since: response.cursor) != nil
    }
    #expect(!follow(answer("e0:4", hasMore: false)), "nothing more waiting")
    // A cursor the loop stops on: not of the protocol's form, moved back, too long.
    #expect(!follow(answer("not a cursor")))
    #expect(!follow(answer("e0:2")))
    #expect(!follow(answer("e0:" + String(repeating: "9", count: 100))))
    // The answer that passes the sync's byte bound: the loop applies it and stops.
    #expect(!follow(answer("e0:4", bytes: 1_001)))
    // A read-ahead the loop gave up on (a push came, a request was refused).
    lookahead.drop()
    #expect(!follow(answer("e0:4"), turn: 0))
    #expect(follow(answer("e0:4", bytes: 999), turn: 1), "one started after the drop")
    // Once the loop has ended, nothing more goes out.
    lookahead.close()
    #expect(!follow(answer("e0:4"), turn: 1))
  }
}
