import Foundation
import Replication
import Schema
import Storage
import Testing

@testable import Sync
@testable import SyncHTTP

/// A property of the whole path, device to server to device: records of every dataset with any
/// JSON value in any field, pushed raw by one client (no device checks on the way) through a
/// real server and pulled by another device. Nothing traps; what the server refuses never
/// arrives; every record it takes is either in the other device's tables or listed as refused
/// there; and every record whose values all pass their rules arrives (but a second profile: an
/// account has one).
@Suite struct AnyValueSyncTests {
  /// A seeded generator: the seed is in every failure message, so a failing run can be replayed.
  struct Dice: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// A value the rule takes.
  static func valid(_ rule: FieldRule?, _ dice: inout Dice) -> WireValue {
    func clamp(_ r: ClosedRange<Double>) -> ClosedRange<Double> { max(r.lowerBound, -1e6)...min(r.upperBound, 1e6) }
    switch rule {
    case .none, .text:
      return .string(["", "Blutspendezentrum Nord", "Ärztin Öz 🩸", "a\tb"].randomElement(using: &dice)!)
    case .oneOf(let words): return .string(words.randomElement(using: &dice)!)
    case .day(let years):
      let year = Int.random(in: max(years.lowerBound, 1990)...min(years.upperBound, 2025), using: &dice)
      return .string(
        String(
          format: "%04d-%02d-%02d", year, Int.random(in: 1...12, using: &dice), Int.random(in: 1...28, using: &dice)))
    case .instant(let years):
      let year = Int.random(in: max(years.lowerBound, 1990)...min(years.upperBound, 2025), using: &dice)
      return .string(
        String(
          format: "%04d-%02d-%02dT%02d:%02d:00.000Z", year, Int.random(in: 1...12, using: &dice),
          Int.random(in: 1...28, using: &dice), Int.random(in: 0...23, using: &dice),
          Int.random(in: 0...59, using: &dice)))
    case .number(let range): return .double(Double.random(in: clamp(range), using: &dice))
    case .numberOrText(let range, _): return .double(Double.random(in: clamp(range), using: &dice))
    case .integer(let range):
      return .int(Int64.random(in: max(range.lowerBound, -1_000_000)...min(range.upperBound, 1_000_000), using: &dice))
    case .flag: return .int(Int64.random(in: 0...1, using: &dice))
    case .timeOfDay:
      return .string(
        String(format: "%02d:%02d", Int.random(in: 0...23, using: &dice), Int.random(in: 0...59, using: &dice)))
    case .timesOfDay: return .string(["08:00", "08:00,20:00", ""].randomElement(using: &dice)!)
    case .weekdays: return .string(["mon", "mon,thu", "sat,sun"].randomElement(using: &dice)!)
    case .sha256: return .string(String(repeating: "ab", count: 32))
    case .json: return .string(["[]", "[\"cramps\"]", "{\"a\":1}"].randomElement(using: &dice)!)
    }
  }

  /// Any JSON scalar: what a broken or hostile client might send.
  static func any(_ dice: inout Dice) -> WireValue {
    let values: [WireValue] = [
      .null, .bool(true), .bool(false), .int(0), .int(-5000), .int(.max), .int(.min), .double(1e308), .double(-1e308),
      .double(5e-324), .double(-0.0), .double(36.6), .string(""), .string("high"),
      .string("\u{1b}[2J\u{1b}]0;owned\u{7}"),
      .string("0000-01-01"), .string("9999-12-31"), .string("2026-13-45"), .string("25:99"), .string("12345"),
      .string("0001-01-01T00:00:00.000Z"), .string(String(repeating: "x", count: 3000)), .string("{not json"),
      .string("NaN"), .string("inf"), .string("mon,funday"),
    ]
    return values.randomElement(using: &dice)!
  }

  @Test func anyValueInAnyFieldNeverTrapsAndTheValidOnesAllArrive() async throws {
    try await LiveServer.with { url in
      let seed = UInt64(Date().timeIntervalSince1970 * 1000)
      var dice = Dice(state: seed)
      let a = try Device(email: "ann@example.org", url: url)
      try await a.register()
      let b = try Device(email: "ann@example.org", url: url)
      try await b.login()
      try await b.sync()

      let datasets = VitalSchema.datasets.filter { !$0.isBlob }
      let clock = HLC(
        milliseconds: Int64(Date().timeIntervalSince1970 * 1000) - 60_000, counter: 0, node: "00000000000000aa")
      var accepted: [(change: WireChange, valid: Bool)] = []
      var refusedByServer: [WireChange] = []
      for n in 0..<400 {
        let dataset = datasets.randomElement(using: &dice)!
        let wholeValid = n % 3 == 0
        var fields = WireFields()
        var values: [String: DatabaseValue] = [:]
        for name in dataset.fields where wholeValid || Bool.random(using: &dice) {
          let value =
            wholeValid || Int.random(in: 0..<3, using: &dice) > 0
            ? Self.valid(dataset.rules[name], &dice) : Self.any(&dice)
          fields[name] = WireField(value: value, hlc: clock.description)
          values[name] = value.databaseValue
        }
        // A record with no fields leaves no trace anywhere: nothing to check.
        if fields.isEmpty { continue }
        let change = WireChange(dataset: dataset.name, id: UUID().uuidString.lowercased(), fields: fields)
        do {
          _ = try await SyncClient.exchange(
            WireJSON.encode(SyncRequest(since: nil, changes: [change], keyID: nil)), url: url, token: a.token)
          // Valid as the device sees a new record: every field of the dataset, those not sent empty.
          let record = Dictionary(uniqueKeysWithValues: dataset.fields.map { ($0, values[$0] ?? .null) })
          // An account has one profile: a second id, however valid, is refused where it arrives.
          accepted.append((change, dataset.fault(in: record) == nil && !dataset.onePerAccount))
        } catch SyncError.recordRefused(_, let named, let id) {
          #expect(named == dataset.name && id == change.id, "seed \(seed)")
          refusedByServer.append(change)
        }
      }
      try await b.sync()

      let refusals = Set(try b.replica.refusals().map { "\($0.dataset)/\($0.id)" })
      func stored(_ change: WireChange) throws -> Bool {
        let dataset = try #require(datasets.named(change.dataset))
        return try b.db.scalar(
          Int.self, "SELECT count(*) FROM \(dataset.table) WHERE \(dataset.key) = ?", change.id) == 1
      }
      for change in refusedByServer {
        #expect(try !stored(change), "seed \(seed): \(change.dataset) \(change.id) was refused by the server")
      }
      var arrived = 0
      for (change, valid) in accepted {
        let here = try stored(change)
        let listed = refusals.contains("\(change.dataset)/\(change.id)")
        #expect(
          here != listed, "seed \(seed): \(change.dataset) \(change.fields) is \(here ? "stored and listed" : "lost")")
        if valid {
          #expect(here, "seed \(seed): a valid \(change.dataset) did not arrive: \(change.fields)")
        }
        if here { arrived += 1 }
      }
      #expect(arrived >= 100, "seed \(seed): a third of the records are valid whole")
      #expect(!refusedByServer.isEmpty, "seed \(seed): some values are bad")
    }
  }
}
