import Foundation
import Testing

@testable import Sync
@testable import SyncServer

/// The SQLite server answers a push first and copies its write-ahead log into the database
/// after, in a job of its own.
@Suite struct ServerCheckpointTests {
  @Test func aLargePushIsCopiedIntoTheDatabaseAfterItsAnswer() async throws {
    var template = Array((NSTemporaryDirectory() + "/vital-checkpoint-XXXXXX").utf8CString)
    let folder = String(cString: mkdtemp(&template)!)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/server.sqlite"
    let repository = try SQLiteSyncRepository(path: path)
    let user = try await repository.createUser(email: "c@example.org", passwordHash: "x", now: Date())
    let bytes = { (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
    let before = try bytes()
    // About 8 MB: over the 1000 pages that make a copy due, under the 10,000 that make a commit copy.
    let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"
    let changes = (0..<2_000).map { i in
      ValidatedChange(
        dataset: "donation", id: "record-\(i)",
        fields: ["notes": WireField(value: .string(String(repeating: "n", count: 4_000)), hlc: hlc)], sealed: false)
    }
    let page = try await repository.sync(
      userID: user, since: nil, changes: changes, page: PageBounds(count: 5000, bytes: 4 << 20), quota: Quota(),
      keyID: nil)
    #expect(page.accepted == 2_000)
    // A call made now runs after the copy, queued on the same actor before it.
    _ = try await repository.syncKey(userID: user)
    #expect(try bytes() > before + 8_000_000)
  }
}
