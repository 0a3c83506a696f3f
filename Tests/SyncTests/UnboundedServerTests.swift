import Foundation
import Storage
import TestServer
import Testing

@testable import SyncHTTP

/// A server that never stops sending valid records: the sync stops at its byte bound with an
/// error naming the server, and keeps every page it took, with the cursor past them.
@Suite struct UnboundedServerTests {
  @Test func aServerThatNeverStopsSendingIsStoppedAtTheByteBoundAndWhatArrivedIsKept() async throws {
    var template = Array((NSTemporaryDirectory() + "/vital-flood-XXXXXX").utf8CString)
    let folder = String(cString: mkdtemp(&template)!)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let server = try HostileServer(folder: folder)
    let device = try Device(email: "ann@example.org", url: server.url("flood"))
    try await device.login()
    let client = device.client
    client.maxPullBytes = 1 << 20
    var saved: String?
    do {
      _ = try await client.sync(token: device.token, cursor: nil, saveCursor: { saved = $0 })
      Issue.record("the sync never stopped")
    } catch let error as SyncError {
      #expect(
        error.description
          == "stopped syncing with \(server.url("flood").absoluteString): it sent more than 1 MiB in one sync; what arrived is kept, run 'vital sync' again to go on"
      )
    }
    // Each page is about 150 kB: the bound is passed on the seventh, and nothing is asked after it.
    let pages = server.requests("flood")
    #expect((6...8).contains(pages), "\(pages) requests")
    #expect(try device.db.scalar(Int.self, "SELECT count(*) FROM donation") == pages * 200)
    #expect(saved == "e0:\(pages)")
  }
}
