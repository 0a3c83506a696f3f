import Foundation
import TestServer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `vital serve --metrics`: a real server on either backend, scraped over HTTP, the scrape
/// checked by Prometheus's own `promtool` (Debian's `prometheus` package, installed by bootstrap).
@Suite struct MetricsTests {
  let folder: String

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/vital-metrics-XXXXXX").utf8CString)
    folder = String(cString: mkdtemp(&template)!)
  }

  func scrape(_ url: URL) async throws -> String {
    let (data, response) = try await URLSession.shared.data(from: url)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/plain") == true)
    return String(decoding: data, as: UTF8.self)
  }

  /// The sample's value, for an exact series (`name{label="value",...}` as the server writes it).
  func value(_ text: String, _ series: String) -> Double? {
    text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last!) }
  }

  /// `promtool check metrics` reads the scrape on stdin: exit 0 and nothing said when it is valid
  /// and follows Prometheus's naming rules.
  func promtool(_ text: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/promtool")
    process.arguments = ["check", "metrics"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try process.run()
    BrokenPipe.write(Data(text.utf8), to: input)
    let said = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: said, as: UTF8.self))
  }

  @Test func scrapeCountsRequestsSyncsAndLockoutsAndNamesNoOne() async throws {
    #expect(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool"),
      "promtool is missing: run scripts/bootstrap (Debian's prometheus package)")
    let server = try TestServer(dataDirectory: folder + "/data", arguments: ["--metrics", "127.0.0.1:0"])
    let metrics = try #require(server.metricsURL)
    #expect(metrics.port != server.port, "metrics on their own address")

    let ann = try Device(email: "ann@example.org", url: server.url)
    try await ann.register()
    _ = try ann.donation(place: "Secret Clinic 42")
    _ = try ann.donation(place: "Another Place")
    try await ann.sync()
    let laptop = try Device(email: "ann@example.org", url: server.url)
    try await laptop.login()
    #expect(try await laptop.sync().pulled == 2)
    let raw = RawHTTP(url: server.url)
    #expect(try await raw.send("GET", "/v1/no-such-thing").0 == 404)
    #expect(try await raw.send("GET", "/metrics").0 == 404, "the sync address does not serve metrics")
    let (status, body) = try await raw.send(
      "POST", "/v1/sessions", body: Data(#"{"email":"ann@example.org","password":"a long server passphrase"}"#.utf8))
    #expect(status == 201)
    let session = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    let userID = try #require(session["user_id"] as? String)
    let blob = String(repeating: "ab", count: 32)
    #expect(try await raw.send("GET", "/v1/blobs/\(blob)", token: "wrong").0 == 401)
    // Ten failed logins in a row lock the account: one lockout, and the right password waits.
    for _ in 0..<10 { await #expect(throws: (any Error).self) { try await laptop.login(password: "not it at all") } }
    await #expect(throws: (any Error).self) { try await laptop.login() }

    let text = try await scrape(metrics)
    let check = try promtool(text)
    #expect(check.status == 0 && check.output.isEmpty, "promtool: \(check.output)")

    // Each sync of a device is one request or more (it may ask again for what is left).
    let syncs = try #require(value(text, "vital_syncs_total"))
    #expect(syncs >= 2)
    #expect(value(text, "vital_records_pushed_total") == 2)
    #expect(value(text, "vital_records_pulled_total") == 2)
    #expect(value(text, "vital_failed_logins_total") == 10)
    #expect(value(text, "vital_lockouts_total") == 1)
    #expect(value(text, "vital_database_errors_total") == 0)
    #expect(value(text, "vital_password_checks_waiting") == 0)
    #expect(value(text, #"vital_http_requests_total{route="/v1/sync",method="POST",status="200"}"#) == syncs)
    #expect(value(text, #"vital_http_requests_total{route="/v1/accounts",method="POST",status="201"}"#) == 1)
    #expect(value(text, #"vital_http_requests_total{route="/v1/sessions",method="POST",status="401"}"#) == 10)
    #expect(value(text, #"vital_http_requests_total{route="/v1/sessions",method="POST",status="429"}"#) == 1)
    #expect(value(text, #"vital_http_requests_total{route="/v1/sessions",method="POST",status="201"}"#) == 3)
    #expect(value(text, #"vital_http_requests_total{route="unmatched",method="GET",status="404"}"#) == 2)
    #expect(value(text, #"vital_http_requests_total{route="/v1/blobs/{sha256}",method="GET",status="401"}"#) == 1)
    #expect(value(text, #"vital_http_request_duration_seconds_count{route="/v1/sync",method="POST"}"#) == syncs)
    #expect(value(text, #"vital_build_info{version="0.1.0",protocol="1"}"#) == 1)

    // Nobody is named: no email, no user id, no token, no blob hash, no value.
    for secret in ["ann@example.org", userID, blob, "Secret Clinic", ann.token, "127.0.0.1"] {
      #expect(!text.contains(secret), "the scrape names \(secret)")
    }
  }
}
