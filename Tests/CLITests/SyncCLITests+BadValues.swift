import Foundation
import Storage
import Sync
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What another device pushes is checked where it can be: a hand-written client pushes values no
/// Vital writes (steps of 1e308, a negative count, Hb as text, a period that starts at a number).
/// In the clear the server refuses them (400, naming the record and field, nothing of the request
/// kept); sealed, only the devices can read them, and the second device stays whole: every read
/// command answers, the bad records are listed, the good ones arrive, and sync never wedges.
extension SyncCLITests {
  /// a's session token, read from its database as a hand-written client would hold one.
  func token(_ device: VitalHome) throws -> String {
    let db = try Database(path: device.home + "/vital.sqlite")
    return try #require(try db.scalar(String.self, "SELECT token FROM sync_remote LIMIT 1"))
  }

  func push(_ changes: [WireChange], as device: VitalHome, keyID: String? = nil) async throws -> (Int, [String: Any]) {
    var request = URLRequest(url: server.url.appendingPathComponent("v1/sync"))
    request.httpMethod = "POST"
    request.httpBody = try JSONEncoder().encode(SyncRequest(since: nil, changes: changes, keyID: keyID))
    request.setValue("Bearer \(try token(device))", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let (data, response) = try await URLSession.shared.data(for: request)
    let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    return ((response as! HTTPURLResponse).statusCode, object)
  }

  static func change(_ dataset: String, _ id: String, _ fields: [(String, String)], clock: Int = 1) throws -> WireChange
  {
    let hlc = String(format: "2026-11-22T10:00:00.%03dZ-0000-0123456789abcdef", clock)
    let object = "{" + fields.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",") + "}"
    let values = try JSONDecoder().decode([String: WireValue].self, from: Data(object.utf8))
    return WireChange(dataset: dataset, id: id, fields: WireFields(values.mapValues { WireField(value: $0, hlc: hlc) }))
  }

  static let sample = [
    ("type", #""HKQuantityTypeIdentifierStepCount""#), ("unit", #""count""#), ("source", #""Rogue""#),
    ("start", #""2026-11-22T09:00:00.000Z""#), ("end", #""2026-11-22T09:30:00.000Z""#),
  ]
  static let donation = [
    ("kind", #""whole-blood""#), ("status", #""completed""#), ("completed_at", #""2026-10-01T08:00:00.000Z""#),
    ("place", #""DRK""#),
  ]

  /// Records no Vital writes, each with the field that makes it so, every one a field's rule
  /// refuses alone (what the server can judge).
  static func badChanges() throws -> [(change: WireChange, field: String)] {
    [
      (try change("health_sample", "huge", sample + [("value", "1e308")]), "value"),
      (try change("donation", "hb-text", donation + [("hb_g_dl", #""high""#)]), "hb_g_dl"),
      (try change("donation", "hb-huge", donation + [("hb_g_dl", "1e308")]), "hb_g_dl"),
      (
        try change(
          "donation", "year-one",
          donation.filter { $0.0 != "completed_at" } + [("completed_at", #""0001-01-01T10:00:00.000Z""#)]),
        "completed_at"
      ),
      (try change("period", "numeric", [("start", "12345"), ("excluded", "0")]), "start"),
      (try change("goal", "zero", [("type", #""steps""#), ("target", "-5")]), "target"),
      (
        try change(
          "medication", "bad-time",
          [("name", #""X""#), ("times", #""25:99""#), ("since", #""2026-11-01T00:00:00.000Z""#)]),
        "times"
      ),
    ]
  }

  /// Records whose fields each pass, but not together: a step count that is negative or text, a
  /// donation without its kind (a change may carry some fields only), a period that ends before
  /// it starts. Only a device, holding the whole record, can judge them.
  static func badRecords() throws -> [WireChange] {
    [
      try change("health_sample", "negative", sample + [("value", "-5000")]),
      try change("health_sample", "text", sample + [("value", #""NaN""#)]),
      try change("donation", "no-kind", [("hb_g_dl", "13.1")]),
      try change("period", "backwards", [("start", #""2026-11-10""#), ("end", #""2026-11-02""#), ("excluded", "0")]),
    ]
  }

  @Test func theServerRefusesBadValuesInTheClearAndKeepsNothingOfTheRequest() async throws {
    let good = try Self.change("donation", "fine", Self.donation + [("hb_g_dl", "13.4")])
    for (bad, field) in try Self.badChanges() {
      let (status, body) = try await push([good, bad], as: a)
      #expect(status == 400, "\(bad.dataset) \(bad.id)")
      let error = body["error"] as? [String: Any]
      #expect(error?["dataset"] as? String == bad.dataset)
      #expect(error?["id"] as? String == bad.id)
      #expect(error?["field"] as? String == field, "\(bad.id): \(body)")
      #expect((error?["message"] as? String)?.contains("nothing of the request was kept") == true)
    }
    #expect(try b.run(["sync"]).status == 0)
    #expect(try history(b).isEmpty, "nothing of a refused request was kept, not even its good record")

    // What only a whole record shows passes the server and stops at the device.
    #expect(try await push([good] + Self.badRecords(), as: a).0 == 200)
    let pulled = try b.run(["sync", "--json"])
    #expect(pulled.status == 0, "\(pulled.stderr)")
    #expect(try history(b).map { $0["id"] as? String } == ["fine"])
    let refused = try #require(pulled.object?["refused"] as? [[String: Any]])
    #expect(Set(refused.compactMap { $0["id"] as? String }) == ["negative", "text", "no-kind", "backwards"])
    #expect(refused.first { $0["id"] as? String == "no-kind" }?["field"] as? String == "kind")
  }

  @Test func sealedBadValuesNeverReachTheOtherDevicesTables() async throws {
    let phrase = "our family sync phrase"
    #expect(try a.run(["remote", "encrypt", "--passphrase-stdin"], stdin: phrase + "\n").status == 0)
    #expect(try b.run(["sync", "--passphrase-stdin"], stdin: phrase + "\n").status == 0)
    let db = try Database(path: a.home + "/vital.sqlite")
    let accountID = try #require(try db.scalar(String.self, "SELECT id FROM account LIMIT 1"))
    let key = try #require(try SyncKey.load(db, accountID: accountID)).key
    let sealer = try Sealer(key: key)
    let seal = { (changes: [WireChange]) in try changes.map { try sealer.seal($0) } }

    let changes =
      try Self.badChanges().map(\.change) + Self.badRecords() + [
        try Self.change("health_sample", "good", Self.sample + [("value", "4200")]),
        try Self.change("donation", "fine", Self.donation + [("hb_g_dl", "13.4")]),
      ]
    let (status, body) = try await push(try seal(changes), as: a, keyID: key.keyID)
    try #require(status == 200, "sealed values are the devices' to judge: \(body)")

    let pulled = try b.run(["sync", "--json"])
    #expect(pulled.status == 0, "sync goes on past bad records: \(pulled.stderr)")
    let refused = try #require(pulled.object?["refused"] as? [[String: Any]])
    let refusedIDs = Set(refused.compactMap { $0["id"] as? String })
    #expect(
      refusedIDs == [
        "huge", "negative", "text", "hb-text", "hb-huge", "no-kind", "year-one", "numeric", "backwards", "zero",
        "bad-time",
      ], "\(refused)")
    #expect(pulled.stderr.contains("warning: a donation (hb-text) from device 01234567 was not applied: hb_g_dl is"))
    #expect(refused.first { $0["id"] as? String == "no-kind" }?["field"] as? String == "kind")

    // Every read command answers; none dies of a signal.
    vital(b, at: "2026-11-22T12:00:00Z")
    for command in [
      [], ["goals", "progress"], ["health", "summary", "--date", "2026-11-22"],
      ["health", "list", "--date", "2026-11-22"],
      ["health", "trend", "--type", "steps"], ["donor", "history"], ["donor", "vitals"], ["cycle", "list"],
      ["meds", "list"], ["report", "--out", b.root + "/report.html"],
      ["export", "--format", "csv", "--out", b.root + "/csv"],
    ] {
      let run = try b.run(command)
      #expect(run.status == 0, "\(command): \(run.status) \(run.stderr)")
    }
    #expect(try b.run(["health", "summary", "--date", "2026-11-22", "--json"]).object?["steps"] as? Double == 4200)
    #expect(try history(b).map { $0["id"] as? String } == ["fine"], "only the valid donation")
    let remote = try #require(try b.run(["remote", "status", "--json"]).object)
    #expect((remote["refused"] as? [Any])?.count == 11)

    // A valid version of a refused record applies, and its refusal goes.
    let fixed = try Self.change("donation", "hb-text", Self.donation + [("hb_g_dl", "12.9")], clock: 2)
    #expect(try await push(try seal([fixed]), as: a, keyID: key.keyID).0 == 200)
    #expect(try b.run(["sync"]).status == 0)
    #expect(try history(b).contains { $0["id"] as? String == "hb-text" })
    #expect((try b.run(["remote", "status", "--json"]).object?["refused"] as? [Any])?.count == 10)
    #expect(try b.run(["sync"]).status == 0, "and the next sync is plain")
  }

  /// A value an older Vital stored before its rules were written (its import took Hb 1e308):
  /// the server refuses it, the device sets that record aside and sends the rest, lists it, and
  /// sends it again once it is corrected.
  @Test func aRecordTheServerRefusesIsSetAsideAndTheRestGoes() throws {
    let old = try a.run(["donor", "record", "--at", "2026-06-01T09:00", "--place", "DRK", "--hb", "13.2", "--json"])
    let new = try a.run(["donor", "record", "--at", "2026-10-01T09:00", "--place", "DRK", "--hb", "13.6", "--json"])
    let oldID = try #require(old.object?["id"] as? String)
    let newID = try #require(new.object?["id"] as? String)
    let db = try Database(path: a.home + "/vital.sqlite")
    try db.execute("UPDATE donation SET hb_g_dl = 1e308 WHERE id = ?", oldID)
    try db.execute("UPDATE sync_outbox SET value = 1e308 WHERE row_id = ? AND field = 'hb_g_dl'", oldID)

    let sent = try a.run(["sync", "--json"])
    #expect(sent.status == 0, "\(sent.stderr)")
    #expect(sent.stderr.contains("warning: donation \(oldID.prefix(12)) set aside: a value the server's rules refuse"))
    #expect(sent.stderr.contains("correct it with 'vital donor edit \(oldID.prefix(12))', then sync"), "\(sent.stderr)")
    let setAside = try #require(sent.object?["set_aside"] as? [[String: Any]])
    #expect(setAside.map { $0["id"] as? String } == [oldID])
    #expect(try a.run(["remote", "status"]).stdout.contains("set aside  1 record not sent:"))
    try sync(b)
    #expect(try history(b).map { $0["id"] as? String } == [newID], "the rest went")

    #expect(try a.run(["donor", "edit", String(oldID.prefix(8)), "--hb", "13.3"]).status == 0)
    #expect(try a.run(["sync"]).status == 0)
    try sync(b)
    let donations = try history(b)
    #expect(Set(donations.compactMap { $0["id"] as? String }) == [oldID, newID])
    #expect(
      (donations.first { $0["id"] as? String == oldID }?["vitals"] as? [String: Any])?["hb_g_dl"] as? Double == 13.3)
    #expect((try a.run(["remote", "status", "--json"]).object?["set_aside"] as? [Any])?.isEmpty == true)
  }

  func vital(_ device: VitalHome, at now: String) { device.environment["VITAL_NOW"] = now }
}
