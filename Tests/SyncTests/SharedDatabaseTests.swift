import Foundation
import Storage
import TestServer
import Testing

@testable import Sync

/// Two `vital serve` processes on one PostgreSQL database, devices syncing through different
/// processes at the same time. Runs when scripts/test runs the sync suites on PostgreSQL.
@Suite(.enabled(if: TestServer.postgresURL != nil)) struct SharedDatabaseTests {
  @Test func devicesOnTwoServersConverge() async throws {
    var template = Array((NSTemporaryDirectory() + "/vital-shared-XXXXXX").utf8CString)
    let folder = String(cString: mkdtemp(&template)!)
    let first = try TestServer(dataDirectory: folder + "/one")
    let second = try TestServer(dataDirectory: folder + "/two", database: first.database)
    let a = try Device(email: "shared@example.org", url: first.url)
    let b = try Device(email: "shared@example.org", url: second.url)
    let c = try Device(email: "shared@example.org", url: first.url)
    try await a.register()
    try await b.login()
    try await c.login()
    // Each device writes, then all sync at once, through both processes, several rounds.
    for round in 0..<5 {
      for (i, device) in [a, b, c].enumerated() {
        for k in 0..<20 { _ = try device.donation(place: "round \(round) device \(i) #\(k)") }
      }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for device in [a, b, c] { group.addTask { _ = try await device.sync() } }
        try await group.waitForAll()
      }
    }
    for device in [a, b, c] { try await device.sync() }
    for device in [a, b, c] { try await device.sync() }
    let expected = try a.snapshot()
    #expect(expected.count == 300)
    #expect(try b.snapshot() == expected)
    #expect(try c.snapshot() == expected)
  }
}
