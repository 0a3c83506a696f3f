import Foundation
import Storage
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What another device pushes is checked when it arrives: a hand-written client pushes values
/// no Vital writes (steps of 1e308, a negative count, Hb as text, a period that starts at a
/// number, a donation missing its kind), and the second device stays whole: every read command
/// answers, the bad records are listed, the good ones arrive, and sync never wedges.
extension SyncCLITests {
  /// a's session token, read from its database as a hand-written client would hold one.
  func token(_ device: VitalHome) throws -> String {
    let db = try Database(path: device.home + "/vital.sqlite")
    return try #require(try db.scalar(String.self, "SELECT token FROM sync_remote LIMIT 1"))
  }

  func push(_ changes: String, as device: VitalHome) async throws -> Int {
    var request = URLRequest(url: server.url.appendingPathComponent("v1/sync"))
    request.httpMethod = "POST"
    request.httpBody = Data(#"{"changes":[\#(changes)]}"#.utf8)
    request.setValue("Bearer \(try token(device))", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let (_, response) = try await URLSession.shared.data(for: request)
    return (response as! HTTPURLResponse).statusCode
  }

  static func change(_ dataset: String, _ id: String, _ fields: [(String, String)], clock: Int = 1) -> String {
    let hlc = String(format: "2026-11-22T10:00:00.%03dZ-0000-0123456789abcdef", clock)
    let body = fields.map { #""\#($0.0)":{"value":\#($0.1),"hlc":"\#(hlc)"}"# }.joined(separator: ",")
    return #"{"dataset":"\#(dataset)","id":"\#(id)","fields":{\#(body)}}"#
  }

  @Test func badValuesPushedByHandNeverReachTheOtherDevicesTables() async throws {
    let sample = [
      ("type", #""HKQuantityTypeIdentifierStepCount""#), ("unit", #""count""#), ("source", #""Rogue""#),
      ("start", #""2026-11-22T09:00:00.000Z""#), ("end", #""2026-11-22T09:30:00.000Z""#),
    ]
    let donation = [
      ("kind", #""whole-blood""#), ("status", #""completed""#), ("completed_at", #""2026-10-01T08:00:00.000Z""#),
      ("place", #""DRK""#),
    ]
    let changes = [
      Self.change("health_sample", "huge", sample + [("value", "1e308")]),
      Self.change("health_sample", "negative", sample + [("value", "-5000")]),
      Self.change("health_sample", "text", sample + [("value", #""NaN""#)]),
      Self.change("health_sample", "good", sample + [("value", "4200")]),
      Self.change("donation", "hb-text", donation + [("hb_g_dl", #""high""#)]),
      Self.change("donation", "hb-huge", donation + [("hb_g_dl", "1e308")]),
      Self.change("donation", "no-kind", [("hb_g_dl", "13.1")]),
      Self.change("donation", "year-one", donation.filter { $0.0 != "completed_at" } + [("completed_at", #""0001-01-01T10:00:00.000Z""#)]),
      Self.change("donation", "fine", donation + [("hb_g_dl", "13.4")]),
      Self.change("period", "numeric", [("start", "12345"), ("excluded", "0")]),
      Self.change("period", "backwards", [("start", #""2026-11-10""#), ("end", #""2026-11-02""#), ("excluded", "0")]),
      Self.change("goal", "zero", [("type", #""steps""#), ("target", "-5")]),
      Self.change("medication", "bad-time", [("name", #""X""#), ("times", #""25:99""#), ("since", #""2026-11-01T00:00:00.000Z""#)]),
    ]
    let status = try await push(changes.joined(separator: ","), as: a)
    try #require(status == 200, "the server took the push (it checks types it knows in a later step)")

    let pulled = try b.run(["sync", "--json"])
    #expect(pulled.status == 0, "sync goes on past bad records: \(pulled.stderr)")
    let refused = try #require(pulled.object?["refused"] as? [[String: Any]])
    let refusedIDs = Set(refused.compactMap { $0["id"] as? String })
    #expect(refusedIDs == ["huge", "negative", "text", "hb-text", "hb-huge", "no-kind", "year-one", "numeric", "backwards", "zero", "bad-time"], "\(refused)")
    #expect(pulled.stderr.contains("warning: a donation (hb-text) from device 01234567 was not applied: hb_g_dl is"))
    #expect(refused.first { $0["id"] as? String == "no-kind" }?["field"] as? String == "kind")

    // Every read command answers; none dies of a signal.
    vital(b, at: "2026-11-22T12:00:00Z")
    for command in [
      [], ["goals", "progress"], ["health", "summary", "--date", "2026-11-22"], ["health", "list", "--date", "2026-11-22"],
      ["health", "trend", "--type", "steps"], ["donor", "history"], ["donor", "vitals"], ["cycle", "list"],
      ["meds", "list"], ["report", "--out", b.root + "/report.html"], ["export", "--format", "csv", "--out", b.root + "/csv"],
    ] {
      let run = try b.run(command)
      #expect(run.status == 0, "\(command): \(run.status) \(run.stderr)")
    }
    #expect(try b.run(["health", "summary", "--date", "2026-11-22", "--json"]).object?["steps"] as? Double == 4200)
    #expect(try history(b).map { $0["id"] as? String } == ["fine"], "only the valid donation")
    let remote = try #require(try b.run(["remote", "status", "--json"]).object)
    #expect((remote["refused"] as? [Any])?.count == 11)

    // A valid version of a refused record applies, and its refusal goes.
    let fixed = try await push(Self.change("donation", "hb-text", donation + [("hb_g_dl", "12.9")], clock: 2), as: a)
    #expect(fixed == 200)
    #expect(try b.run(["sync"]).status == 0)
    #expect(try history(b).contains { $0["id"] as? String == "hb-text" })
    #expect((try b.run(["remote", "status", "--json"]).object?["refused"] as? [Any])?.count == 10)
    #expect(try b.run(["sync"]).status == 0, "and the next sync is plain")
  }

  func vital(_ device: VitalHome, at now: String) { device.environment["VITAL_NOW"] = now }
}
