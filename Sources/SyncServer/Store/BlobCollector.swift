import Foundation
import ServiceLifecycle

/// Deletes the bytes of blobs no record points at any more (`SyncRepository.collectBlobs`):
/// when the server starts, then every hour. Each run is one transaction (one statement on
/// PostgreSQL), so several servers on one database collecting at once do no harm.
struct BlobCollector: Service {
  let repository: any SyncRepository
  let metrics: ServerMetrics
  let now: @Sendable () -> Date
  var interval: Duration = .seconds(3600)

  func run() async throws {
    while !Task.isCancelled {
      do {
        let collected = try await repository.collectBlobs(
          storedBefore: now().addingTimeInterval(-CollectedBlobs.grace))
        metrics.blobsCollected.increment(by: Int64(collected.blobs))
        metrics.blobBytesCollected.increment(by: collected.bytes)
      } catch {
        // The next run tries again; the error names no account or value.
        metrics.databaseErrors.increment()
        FileHandle.standardError.write(
          Data("warning: collecting unused blobs failed: \(String(describing: error).prefix(200))\n".utf8))
      }
      // A graceful shutdown (or cancellation) ends the wait, and the service with it.
      do {
        try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
      } catch {
        return
      }
    }
  }
}
