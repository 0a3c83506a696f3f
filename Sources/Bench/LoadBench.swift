import Foundation
import Storage

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `vital-bench load URL[,URL...] CLIENTS SECONDS`: each client, its own user, pushes two small
/// new records and pulls what is new, again and again, through the servers in turn; then every
/// client reads its whole data back and checks that each record it pushed is there exactly once.
func loadBench(urls: [URL], clients: Int, seconds: Double) async throws {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.httpMaximumConnectionsPerHost = clients * 2
  configuration.timeoutIntervalForRequest = 60
  let session = URLSession(configuration: configuration)
  let run = UUID().uuidString.prefix(8).lowercased()

  func call(_ url: URL, _ method: String, _ path: String, _ body: Any?, token: String? = nil) async throws -> (
    Int, [String: Any]
  ) {
    var request = URLRequest(url: url.appendingPathComponent(String(path.dropFirst())))
    request.httpMethod = method
    if let body { request.httpBody = try JSONSerialization.data(withJSONObject: body) }
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    let (data, response) = try await session.data(for: request)
    let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    return ((response as! HTTPURLResponse).statusCode, object)
  }

  // Accounts first (each costs a password hash on the server).
  var tokens: [String] = []
  for i in 0..<clients {
    let url = urls[i % urls.count]
    let credentials = ["email": "load-\(run)-\(i)@example.org", "password": "load test passphrase \(i)"]
    _ = try await call(url, "POST", "/v1/accounts", credentials)
    let (status, login) = try await call(url, "POST", "/v1/sessions", credentials)
    guard status == 201, let token = login["token"] as? String else { throw LoadError.setup(status) }
    tokens.append(token)
  }

  struct ClientResult: Sendable {
    var latencies: [Double] = []
    var pushed: [String] = []
    var failures = 0
  }
  let node = String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
  let deadline = Date().addingTimeInterval(seconds)
  let started = Date()
  let results = try await withThrowingTaskGroup(of: (Int, ClientResult).self) { group in
    for i in 0..<clients {
      let token = tokens[i]
      group.addTask {
        var result = ClientResult()
        var cursor: String?
        var turn = i
        while Date() < deadline {
          let url = urls[turn % urls.count]
          turn += 1
          let hlc = HLC(milliseconds: Int64(Date().timeIntervalSince1970 * 1000), counter: 0, node: node).description
          let ids = (0..<2).map { _ in UUID().uuidString.lowercased() }
          let changes = ids.map { id in
            [
              "dataset": "donation", "id": id,
              "fields": ["place": ["value": "Load \(i)", "hlc": hlc], "kind": ["value": "plasma", "hlc": hlc]],
            ] as [String: Any]
          }
          let begin = DispatchTime.now().uptimeNanoseconds
          let (status, answer) = try await call(
            url, "POST", "/v1/sync", ["since": cursor as Any? ?? NSNull(), "changes": changes], token: token)
          result.latencies.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6)
          if status == 200, let next = answer["cursor"] as? String {
            cursor = next
            result.pushed += ids
          } else {
            result.failures += 1
          }
        }
        return (i, result)
      }
    }
    var all = [ClientResult](repeating: ClientResult(), count: clients)
    for try await (i, result) in group { all[i] = result }
    return all
  }
  let elapsed = Date().timeIntervalSince(started)

  // Every record pushed is on the server exactly once, whichever process took it.
  var lost = 0
  var duplicated = 0
  for (i, token) in tokens.enumerated() {
    var cursor: String?
    var seen: [String: Int] = [:]
    while true {
      let (_, page) = try await call(
        urls[i % urls.count], "POST", "/v1/sync", ["since": cursor as Any? ?? NSNull(), "changes": []], token: token)
      for change in page["changes"] as? [[String: Any]] ?? [] {
        if let id = change["id"] as? String { seen[id, default: 0] += 1 }
      }
      cursor = page["cursor"] as? String
      if page["has_more"] as? Bool != true { break }
    }
    let pushed = Set(results[i].pushed)
    lost += pushed.filter { seen[$0] == nil }.count
    duplicated += seen.values.filter { $0 > 1 }.count
  }
  let latencies = results.flatMap(\.latencies).sorted()
  func percentile(_ p: Double) -> Double {
    latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
  }
  print("requests \(latencies.count)")
  print("requests_per_second \(Int(Double(latencies.count) / elapsed))")
  print(String(format: "p50_ms %.1f", percentile(0.50)))
  print(String(format: "p99_ms %.1f", percentile(0.99)))
  print("failed \(results.map(\.failures).reduce(0, +))")
  print("pushed \(results.map(\.pushed.count).reduce(0, +)) lost \(lost) duplicated \(duplicated)")
}

enum LoadError: Error { case setup(Int) }
