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
    syncs = registry.makeCounter(descriptor: Self.named("vital_syncs_total", "Sync requests answered."))
    recordsPushed = registry.makeCounter(
      descriptor: Self.named("vital_records_pushed_total", "Changed records received in sync requests."))
    recordsPulled = registry.makeCounter(
      descriptor: Self.named("vital_records_pulled_total", "Records sent back in sync answers."))
    passwordChecksRunning = registry.makeGauge(
      descriptor: Self.named("vital_password_checks_running", "Password hashes (scrypt) being computed now."))
    passwordChecksWaiting = registry.makeGauge(
      descriptor: Self.named("vital_password_checks_waiting", "Logins and registrations waiting for a password check."))
    failedLogins = registry.makeCounter(
      descriptor: Self.named("vital_failed_logins_total", "Logins refused for a wrong password."))
    lockouts = registry.makeCounter(
      descriptor: Self.named("vital_lockouts_total", "Accounts locked after repeated failed logins."))
    databaseErrors = registry.makeCounter(
      descriptor: Self.named("vital_database_errors_total", "Requests that failed on a database error."))
    connectionsOpen = registry.makeGauge(
      descriptor: Self.named("vital_connections_open", "Client connections open now."))
    blobsCollected = registry.makeCounter(
      descriptor: Self.named("vital_blobs_collected_total", "Blobs deleted because no record points at them any more."))
    blobBytesCollected = registry.makeCounter(
      descriptor: Self.named("vital_blob_bytes_collected_total", "Bytes of the blobs collected."))
    registry.makeGauge(
      descriptor: Self.named("vital_build_info", "The server's version and sync protocol; always 1."),
      labels: [("version", Release.version), ("protocol", String(Release.syncProtocol))]
    ).set(to: 1)
  }

  /// A metric's whole name, as the descriptor API wants it, and its help line.
  static func named(_ name: String, _ help: String) -> MetricNameDescriptor {
    MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
  }

  /// Counts one answered request and how long it took.
  func request(route: String, method: String, status: Int, duration: Duration) {
    let method = Self.methods.contains(method) ? method : "other"
    registry.makeCounter(
      descriptor: Self.named(
        "vital_http_requests_total", "HTTP requests answered, by route template, method and status."),
      labels: [("route", route), ("method", method), ("status", String(status))]
    ).increment()
    registry.makeDurationHistogram(
      descriptor: Self.named(
        "vital_http_request_duration_seconds", "Time from a request's arrival to its answer, by route template."),
      labels: [("route", route), ("method", method)], buckets: Self.latencyBuckets
    ).record(duration)
  }

  /// Counts a refused login or registration; `reason` is one of a fixed set (`SyncAPI.Refusal`).
  func refused(_ reason: String) {
    registry.makeCounter(
      descriptor: Self.named(
        "vital_refusals_total",
        "Logins and registrations refused, by reason; each also writes one log line with the address."),
      labels: [("reason", reason)]
    ).increment()
  }

  /// The text a scrape gets.
  public func exposition() -> [UInt8] {
    registry.emitToBuffer()
  }
}
