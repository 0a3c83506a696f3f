import Foundation
import PostgresNIO
import TestServer
import Testing

@testable import Sync
@testable import SyncServer

/// PostgreSQL's sync in two round trips: a read, then a write that goes through only if nothing
/// of the user changed since the read. Against the repository itself, on a fresh database of
/// the test cluster, so that another request can be slipped in between the two.
@Suite(.enabled(if: TestServer.postgresURL != nil)) struct OptimisticSyncTests {
  static let bounds = PageBounds(count: 5000, bytes: 4 << 20)
  static let token = String(repeating: "ab", count: 32)

  func withRepository(_ body: @Sendable (PostgresSyncRepository) async throws -> Void) async throws {
    let base = try #require(TestServer.postgresURL)
    let url = (base.hasSuffix("/") ? base : base + "/") + (try TestServer.createDatabase())
    let client = try PostgresSyncRepository.makeClient(url: url)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      let repository = try await PostgresSyncRepository(client: client)
      let user = try await repository.createUser(email: "race@example.org", passwordHash: "x", now: Date())
      try await repository.createToken(userID: user, tokenSHA256: Self.token, deviceName: "test", now: Date())
      try await body(repository)
    }
  }

  static func change(_ id: String, _ place: String, minute: Int = 0) -> ValidatedChange {
    let hlc = String(format: "2026-11-22T10:%02d:00.000Z-0000-0123456789abcdef", minute)
    return ValidatedChange(
      dataset: "donation", id: id, fields: ["place": WireField(value: .string(place), hlc: hlc)], sealed: false)
  }

  static func sync(_ repository: PostgresSyncRepository, since: String? = nil, _ changes: [ValidatedChange])
    async throws -> SyncPage
  {
    guard
      case .synced(let page) = try await repository.sync(
        tokenSHA256: token, now: Date(), since: since, changes: changes, page: bounds, quota: .none, keyID: nil)
    else { throw CancellationError() }
    return page
  }

  static func ids(_ page: SyncPage) -> [String] {
    page.changesJSON.compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
    }
  }

  @Test func aWriteAfterAnotherRequestWroteChangesNothingAndTheRequestReadsAgain() async throws {
    try await withRepository { repository in
      let first = try await Self.sync(repository, [Self.change("a", "A")])
      // Request 1 reads (the counter at 1), then request 2 writes b, then request 1 writes.
      let ours = [Self.change("a", "A2", minute: 1), Self.change("c", "C")]
      let read = try await repository.readForSync(tokenSHA256: Self.token, changes: ours, start: 1, bounds: Self.bounds)
      let user = try #require(read.user)
      #expect(user.seq == 1)
      let writes = try MergedWrites(ours, stored: read.stored, seq: user.seq, since: 1)
      _ = try await Self.sync(repository, since: first.cursor, [Self.change("b", "B")])
      let late = try await repository.write(
        writes, user: user, tokenSHA256: Self.token, now: Date(), touchToken: false, quota: .none, start: 1,
        bounds: Self.bounds)
      #expect(late == nil, "the counter moved: nothing of request 1 is written")
      let all = try await Self.sync(repository, [])
      #expect(Self.ids(all) == ["a", "b"])
      #expect(all.changesJSON[0].contains("\"A\""), "a as it was before request 1")

      // The whole request reads again: its records go in after b, and b comes back to it.
      let retried = try await Self.sync(repository, since: first.cursor, ours)
      #expect(retried.accepted == 2)
      #expect(Self.ids(retried) == ["b"])
      let after = try await Self.sync(repository, [])
      #expect(Self.ids(after) == ["b", "a", "c"])
      #expect(after.cursor.hasSuffix(":4"))
    }
  }

  @Test func manyRequestsOfOneUserAtOnceStoreEachRecordOnceInOneOrder() async throws {
    try await withRepository { repository in
      let requests = 12
      let perRequest = 40
      try await withThrowingTaskGroup(of: SyncPage.self) { group in
        for r in 0..<requests {
          group.addTask {
            try await Self.sync(repository, (0..<perRequest).map { Self.change("r\(r)-\($0)", "place \(r)") })
          }
        }
        for try await page in group { #expect(page.accepted == perRequest) }
      }
      let all = try await Self.sync(repository, [])
      let ids = Self.ids(all)
      #expect(ids.count == requests * perRequest)
      #expect(Set(ids).count == ids.count, "each record once")
      #expect(all.cursor.hasSuffix(":\(requests * perRequest)"), "one number per record, none skipped")
      // Each request's records were numbered together: no request's writes interleave another's.
      var runs = 0
      var previous = ""
      for id in ids {
        let request = String(id.prefix { $0 != "-" })
        if request != previous { runs += 1 }
        previous = request
      }
      #expect(runs == requests)
      let accounts = try await repository.accounts()
      #expect(accounts.first?.records == Int64(requests * perRequest))
    }
  }

  @Test func anUnknownTokenAndABadCursorAreToldApart() async throws {
    try await withRepository { repository in
      let unknown = try await repository.sync(
        tokenSHA256: String(repeating: "cd", count: 32), now: Date(), since: "elsewhere:9", changes: [],
        page: Self.bounds, quota: .none, keyID: nil)
      guard case .unknownToken = unknown else {
        Issue.record("an unknown token is refused before the cursor is looked at")
        return
      }
      await #expect(throws: SyncRepositoryError.resyncRequired) {
        _ = try await Self.sync(repository, since: "elsewhere:9", [])
      }
    }
  }
}
