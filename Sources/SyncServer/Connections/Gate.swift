import Hummingbird

/// At most `limit` bodies of work at once; up to `queue` more wait their turn, and beyond that
/// the request is turned away with 503 and Retry-After instead of piling up (each scrypt run
/// holds 128 MiB: the bound on waiting work is a bound on memory and on latency).
actor Gate {
  let limit: Int
  let queue: Int
  var running = 0 {
    didSet { metrics?.passwordChecksRunning.set(Double(running)) }
  }
  var waiting: [CheckedContinuation<Void, Never>] = [] {
    didSet { metrics?.passwordChecksWaiting.set(Double(waiting.count)) }
  }
  let metrics: ServerMetrics?

  init(limit: Int, queue: Int = 64, metrics: ServerMetrics? = nil) {
    self.limit = limit
    self.queue = queue
    self.metrics = metrics
  }

  func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
    if running >= limit {
      guard waiting.count < queue else {
        throw APIError(
          .serviceUnavailable, .busy, "the server is busy checking passwords; try again shortly",
          headers: [.retryAfter: "2"])
      }
      await withCheckedContinuation { waiting.append($0) }
    } else {
      running += 1
    }
    defer {
      if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }
    return try await work()
  }
}
