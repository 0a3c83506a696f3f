import Foundation
import Hummingbird
import Testing

@testable import SyncServer

@Suite struct GateTests {
  /// One check at a time, one waiting: a third arriving meanwhile is turned away with 503.
  @Test func workBeyondTheQueueIsTurnedAwayNotPiledUp() async throws {
    let gate = Gate(limit: 1, queue: 1)
    let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
      for i in 0..<3 {
        group.addTask {
          try await Task.sleep(nanoseconds: UInt64(i) * 50_000_000)
          do {
            return try await gate.run {
              try await Task.sleep(nanoseconds: 400_000_000)
              return "ran"
            }
          } catch let error as APIError {
            return "\(error.status.code) \(error.headers[.retryAfter] ?? "-")"
          }
        }
      }
      var all: [String] = []
      for try await outcome in group { all.append(outcome) }
      return all.sorted()
    }
    #expect(outcomes == ["503 2", "ran", "ran"])
  }
}
