import Foundation
import Sync
import TestServer
import Testing

@testable import SyncHTTP

/// The request for the page after the one being read ahead goes out only when the sync loop will
/// ask for that page, and is used only for the cursor it was sent with. Against a server that
/// always has more (`moving`: each answer's cursor is one past the one asked with), which
/// counts the requests it answered.
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

  @Test func theNextPageIsAskedForOnceAndTakenForItsOwnCursorOnly() async throws {
    let url = server.url("moving")
    let bounds = PullBounds(server: url.absoluteString)
    let lookahead = SyncClient.Lookahead()
    lookahead.follow(answer("e0:4"), since: "e0:3", bounds: bounds, key: nil, url: url, token: "t")
    let request = try #require(lookahead.take(since: "e0:4"))
    // The server answers the request sent with e0:4: its cursor is e0:5.
    #expect(try await request.value.cursor == "e0:5")
    #expect(server.requests("moving") == 1)
    #expect(lookahead.take(since: "e0:4") == nil, "taken once")

    // One sent for another cursor than the loop goes on from is not used.
    lookahead.follow(answer("e0:5"), since: "e0:4", bounds: bounds, key: nil, url: url, token: "t")
    #expect(lookahead.take(since: "e0:9") == nil)
    #expect(lookahead.take(since: "e0:5") == nil, "dropped when another was asked for")
  }

  @Test func noRequestGoesOutForAPageTheLoopWillNotAskFor() async throws {
    let url = server.url("moving")
    let lookahead = SyncClient.Lookahead()
    let bounds = PullBounds(server: url.absoluteString, maxBytes: 1_000)
    // Nothing more waiting.
    lookahead.follow(answer("e0:4", hasMore: false), since: "e0:3", bounds: bounds, key: nil, url: url, token: "t")
    // A cursor the loop stops on: not of the protocol's form, moved back, too long.
    lookahead.follow(answer("not a cursor"), since: "e0:3", bounds: bounds, key: nil, url: url, token: "t")
    lookahead.follow(answer("e0:2"), since: "e0:3", bounds: bounds, key: nil, url: url, token: "t")
    lookahead.follow(
      answer("e0:" + String(repeating: "9", count: 100)), since: "e0:3", bounds: bounds, key: nil, url: url,
      token: "t")
    // The answer that passes the sync's byte bound: the loop applies it and stops.
    lookahead.follow(answer("e0:4", bytes: 1_001), since: "e0:3", bounds: bounds, key: nil, url: url, token: "t")
    for cursor in ["e0:4", "not a cursor", "e0:2"] { #expect(lookahead.take(since: cursor) == nil) }

    // Once the loop has ended, nothing more goes out.
    lookahead.close()
    lookahead.follow(answer("e0:4"), since: "e0:3", bounds: bounds, key: nil, url: url, token: "t")
    #expect(lookahead.take(since: "e0:4") == nil)

    // The one request that did go out in these tests is the one below, which the server counts.
    let sent = SyncClient.Lookahead()
    sent.follow(answer("e0:4", bytes: 999), since: "e0:3", bounds: bounds, key: nil, url: url, token: "t")
    #expect(try await #require(sent.take(since: "e0:4")).value.cursor == "e0:5")
    #expect(server.requests("moving") == 1)
  }
}
