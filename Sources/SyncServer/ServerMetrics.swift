import Foundation
import Prometheus
import Sync

/// What `vital serve --metrics HOST:PORT` serves in Prometheus's text format. Labels hold only
/// route templates, methods, status codes and fixed reasons: never an email, an id, an address
/// or a value, so a scrape tells nothing about anyone's health or who uses the server.
public final class ServerMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  let syncs: Counter
  let recordsPushed: Counter
  let recordsPulled: Counter
  let passwordChecksRunning: Gauge
  let passwordChecksWaiting: Gauge
  let failedLogins: Counter
  let lockouts: Counter
  let databaseErrors: Counter
  let connectionsOpen: Gauge
  let blobsCollected: Counter
  let blobBytesCollected: Counter

  /// Bounds of the latency histogram, in seconds: a sync on loopback takes milliseconds, a
  /// login (scrypt) most of a second.
  static let latencyBuckets: [Duration] = [
    .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
    .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
  ]
  /// The methods a label may name; any other is counted as `other`, so that made-up methods
  /// cannot grow the number of series without bound.
  static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

  public init() {
    syncs = registry.makeCounter(name: "vital_syncs_total", help: "Sync requests answered.")
    recordsPushed = registry.makeCounter(
      name: "vital_records_pushed_total", help: "Changed records received in sync requests.")
    recordsPulled = registry.makeCounter(
      name: "vital_records_pulled_total", help: "Records sent back in sync answers.")
    passwordChecksRunning = registry.makeGauge(
      name: "vital_password_checks_running", help: "Password hashes (scrypt) being computed now.")
    passwordChecksWaiting = registry.makeGauge(
      name: "vital_password_checks_waiting", help: "Logins and registrations waiting for a password check.")
    failedLogins = registry.makeCounter(name: "vital_failed_logins_total", help: "Logins refused for a wrong password.")
    lockouts = registry.makeCounter(
      name: "vital_lockouts_total", help: "Accounts locked after repeated failed logins.")
    databaseErrors = registry.makeCounter(
      name: "vital_database_errors_total", help: "Requests that failed on a database error.")
    connectionsOpen = registry.makeGauge(name: "vital_connections_open", help: "Client connections open now.")
    blobsCollected = registry.makeCounter(
      name: "vital_blobs_collected_total", help: "Blobs deleted because no record points at them any more.")
    blobBytesCollected = registry.makeCounter(
      name: "vital_blob_bytes_collected_total", help: "Bytes of the blobs collected.")
    registry.makeGauge(
      name: "vital_build_info", labels: [("version", Release.version), ("protocol", String(Release.syncProtocol))],
      help: "The server's version and sync protocol; always 1."
    ).set(to: 1)
  }

  /// Counts one answered request and how long it took.
  func request(route: String, method: String, status: Int, duration: Duration) {
    let method = Self.methods.contains(method) ? method : "other"
    registry.makeCounter(
      name: "vital_http_requests_total", labels: [("route", route), ("method", method), ("status", String(status))],
      help: "HTTP requests answered, by route template, method and status."
    ).increment()
    registry.makeDurationHistogram(
      name: "vital_http_request_duration_seconds", labels: [("route", route), ("method", method)],
      buckets: Self.latencyBuckets, help: "Time from a request's arrival to its answer, by route template."
    ).record(duration)
  }

  /// Counts a refused login or registration; `reason` is one of a fixed set (`SyncAPI.Refusal`).
  func refused(_ reason: String) {
    registry.makeCounter(
      name: "vital_refusals_total", labels: [("reason", reason)],
      help: "Logins and registrations refused, by reason; each also writes one log line with the address."
    ).increment()
  }

  /// The text a scrape gets.
  public func exposition() -> [UInt8] {
    registry.emitToBuffer()
  }
}
