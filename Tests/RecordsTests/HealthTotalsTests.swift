import Core
import Foundation
import Replication
import Schema
import Storage
import Testing

@testable import Records

/// Totals through the store: local days in Europe/Berlin, the cache kept up to date whoever
/// writes, the ranking and its changes.
@Suite struct HealthTotalsTests {
  let t: TestAccount
  let watch = "Anna’s Apple Watch"
  let phone = "Anna’s iPhone"

  init() throws { t = try TestAccount() }

  var store: HealthStore {
    HealthStore(db: t.db, account: t.account, now: t.local("2026-12-31 12:00"), calendar: t.calendar)
  }
  var replica: Replica { Replica(db: t.db, accountID: t.account.id, now: t.local("2026-12-31 12:00")) }

  /// Writes a steps sample as an import would (through the synced bulk insert).
  func steps(_ source: String, _ from: String, _ to: String, _ value: Double, id: String? = nil) throws {
    _ = try replica.insertNew(
      .healthSample,
      [
        (
          id ?? UUID().uuidString,
          [
            .text(HealthType.steps), .real(value), .text("count"), .text(source),
            .text(ISO8601.string(from: t.local(from))), .text(ISO8601.string(from: t.local(to))),
          ]
        )
      ])
  }

  func note(_ sources: [String: HealthSource.Kind]) throws {
    try HealthStore.note(sources.mapValues { ($0, true) }, replica: replica)
  }

  func total(_ day: String) throws -> Double { try store.totals(on: LocalDate(day)!).steps }

  @Test func theIssueExamplesThroughTheStore() throws {
    try note([watch: .watch, phone: .phone])
    try steps(watch, "2026-11-10 10:00", "2026-11-10 10:10", 600)
    try steps(phone, "2026-11-10 10:05", "2026-11-10 10:15", 1000)
    try steps(phone, "2026-11-10 23:50", "2026-11-11 00:10", 200)
    let day = try store.totals(on: LocalDate("2026-11-10")!)
    #expect(abs(day.steps - 1200) < 1e-6)
    #expect(abs((day.sources[.steps]?[watch] ?? 0) - 600) < 1e-6)
    #expect(abs((day.sources[.steps]?[phone] ?? 0) - 600) < 1e-6)
    #expect(abs(try total("2026-11-11") - 100) < 1e-6)
  }

  @Test func daysOfTwentyThreeAndTwentyFiveHoursGetTheirShare() throws {
    // 12:00 the day before to 12:00 the day after: 47 hours around the spring-forward day, 49
    // around the fall-back day; 100 steps an hour.
    try steps(phone, "2026-03-28 12:00", "2026-03-30 12:00", 4700)
    try steps(phone, "2026-10-24 12:00", "2026-10-26 12:00", 4900)
    #expect(abs(try total("2026-03-28") - 1200) < 1e-6)
    #expect(abs(try total("2026-03-29") - 2300) < 1e-6)
    #expect(abs(try total("2026-03-30") - 1200) < 1e-6)
    #expect(abs(try total("2026-10-24") - 1200) < 1e-6)
    #expect(abs(try total("2026-10-25") - 2500) < 1e-6)
    #expect(abs(try total("2026-10-26") - 1200) < 1e-6)
  }

  @Test func theSameSamplesInAnotherZoneMakeOtherDays() throws {
    try steps(phone, "2026-11-10 23:30", "2026-11-11 00:30", 600)
    var tokyo = Calendar(identifier: .gregorian)
    tokyo.timeZone = TimeZone(identifier: "Asia/Kolkata")!  // +05:30: quarter hours still fit
    let kolkata = HealthStore(db: t.db, account: t.account, now: t.local("2026-12-31 12:00"), calendar: tokyo)
    // 22:30-23:30 UTC is 04:00-05:00 on 11 November in Kolkata: all of it.
    #expect(abs(try kolkata.totals(on: LocalDate("2026-11-11")!).steps - 600) < 1e-6)
    #expect(try kolkata.totals(on: LocalDate("2026-11-10")!).steps == 0)
    #expect(abs(try total("2026-11-10") - 300) < 1e-6)
  }

  @Test func preferringASourceReordersAndChangesTheTotal() throws {
    try note([watch: .watch, phone: .phone])
    try steps(watch, "2026-11-10 10:00", "2026-11-10 10:10", 600)
    try steps(phone, "2026-11-10 10:00", "2026-11-10 10:10", 800)
    #expect(try store.sources().map(\.source.name) == [watch, phone])
    #expect(try total("2026-11-10") == 600)
    let ranked = try store.prefer([phone])
    #expect(ranked.map(\.source.name) == [phone, watch])
    #expect(ranked.first?.source.preferred == 1)
    #expect(try total("2026-11-10") == 800)
    #expect(throws: HealthStore.SourceFailure.self) { try store.prefer(["Nobody’s Phone"]) }
    #expect(throws: HealthStore.SourceFailure.self) { try store.prefer([phone, phone]) }
    #expect(try total("2026-11-10") == 800, "a refused preference changes nothing")
    try store.prefer([])
    #expect(try total("2026-11-10") == 600)
  }

  @Test func theCountedSourcesRankAsTheSamplesDoWithTheirDays() throws {
    try note([watch: .watch, phone: .phone])
    try steps(phone, "2026-11-09 10:00", "2026-11-09 10:10", 300)
    try steps(watch, "2026-11-10 10:00", "2026-11-10 10:10", 600)
    try steps(phone, "2026-11-10 10:00", "2026-11-10 10:10", 800)
    let counted = try store.countedSources()
    #expect(counted.map(\.source.name) == (try store.sources().map(\.source.name)))
    #expect(counted.map(\.days) == [1, 2])
    #expect(counted.last?.first == LocalDate("2026-11-09") && counted.last?.last == LocalDate("2026-11-10"))
    try store.prefer([phone])
    #expect(try store.countedSources().map(\.source.name) == [phone, watch], "a preference reorders them too")
  }

  @Test func everyWriterKeepsTheCountCurrent() throws {
    try steps(phone, "2026-11-10 10:00", "2026-11-10 10:10", 600, id: "hs-one")
    #expect(try total("2026-11-10") == 600)
    // By hand (source Vital, an instant), counted because nothing else covers it.
    try store.add(type: "steps", value: 50, at: t.local("2026-11-10 12:00"))
    #expect(try total("2026-11-10") == 650)
    // From another device, as sync applies it.
    let clock = HLC(milliseconds: 1, counter: 0, node: "0000000000000abc")
    try replica.apply(
      .healthSample, id: "hs-remote",
      [
        "type": (.text(HealthType.steps), clock), "value": (.integer(1000), clock), "unit": (.text("count"), clock),
        "source": (.text("Pedometer++"), clock),
        "start": (.text(ISO8601.string(from: t.local("2026-11-10 18:00"))), clock),
        "end": (.text(ISO8601.string(from: t.local("2026-11-10 19:00"))), clock),
      ])
    #expect(try total("2026-11-10") == 1650)
    // A remote edit that moves a sample to another day takes it from the first.
    let later = HLC(milliseconds: 2, counter: 0, node: "0000000000000abc")
    try replica.apply(
      .healthSample, id: "hs-remote",
      [
        "start": (.text(ISO8601.string(from: t.local("2026-11-12 18:00"))), later),
        "end": (.text(ISO8601.string(from: t.local("2026-11-12 19:00"))), later),
      ])
    #expect(try total("2026-11-10") == 650)
    #expect(try total("2026-11-12") == 1000)
    // Deletes, local and remote.
    try replica.delete(.healthSample, id: "hs-one")
    #expect(try total("2026-11-10") == 50)
    try replica.apply(
      .healthSample, id: "hs-remote",
      [FieldMerge.deleted: (.integer(1), HLC(milliseconds: 3, counter: 0, node: "0000000000000abc"))])
    #expect(try total("2026-11-12") == 0)
  }

  @Test func aSourceMetOnlyInSamplesRanksByItsName() throws {
    // No source rows at all (samples synced from a device that kept none).
    try steps("Bob’s iPhone", "2026-11-10 10:00", "2026-11-10 10:10", 100)
    try steps("Bob’s Apple Watch", "2026-11-10 10:00", "2026-11-10 10:10", 90)
    let sources = try store.totals(on: LocalDate("2026-11-10")!).sources
    #expect(try total("2026-11-10") == 90, "\(sources)")
    #expect(try store.sources().map(\.source.kind) == [.watch, .phone])
    // A row arriving later with another kind counts everything again.
    try note(["Bob’s Apple Watch": .other])
    #expect(try total("2026-11-10") == 100)
  }

  @Test func sourcesOfTwoAccountsInOneHomeDoNotCollide() throws {
    try note([phone: .phone])
    try t.db.execute(
      "INSERT INTO account (id, email, password_hash, created_at) VALUES ('acc2', 'b@example.org', 'x', '2020-01-01T00:00:00Z')"
    )
    let other = Replica(db: t.db, accountID: "acc2", now: Date())
    try HealthStore.note([phone: (.phone, true)], replica: other)
    #expect(try t.db.scalar(Int.self, "SELECT count(*) FROM health_source") == 2)
  }

  @Test func theKindComesFromTheDeviceElseTheName() {
    let device =
      "<<HKDevice: 0x3012772a0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>"
    #expect(HealthSource.Kind(device: device, name: "Anything") == .watch)
    #expect(
      HealthSource.Kind(device: "<<HKDevice: 0x1>, name:iPhone, model:iPhone, hardware:iPhone14,5>", name: "x")
        == .phone)
    #expect(HealthSource.Kind(device: "<<HKDevice: 0x1>, name:Scale, model:Body+>", name: "Withings") == .other)
    #expect(HealthSource.Kind(device: nil, name: "Simon’s iPhone") == .phone)
    #expect(HealthSource.Kind(device: nil, name: "Health Mate") == .other)
    let ranked = HealthSource.ranked([
      .init(name: "b app", kind: .other), .init(name: "a phone", kind: .phone), .init(name: "z watch", kind: .watch),
      .init(name: "a app", kind: .other), .init(name: "m", kind: .other, preferred: 1),
    ])
    #expect(ranked.map(\.name) == ["m", "z watch", "a phone", "a app", "b app"])
  }
}

@Suite struct HealthSourcesMigrationTests {
  @Test func samplesImportedBeforeGetTheirSourcesAndCount() throws {
    let db = try Database.inMemory()
    let all = VitalSchema.migrator.migrations
    try Migrator(Array(all.prefix(10))).migrate(db)
    try db.execute(
      "INSERT INTO account (id, email, password_hash, created_at) VALUES ('acc', 'a@example.org', 'x', '2020-01-01T00:00:00Z')"
    )
    for (id, source, value) in [("hs-1", "Simon’s Apple Watch", 600), ("hs-2", "Simon’s iPhone", 1000)] {
      try db.execute(
        """
        INSERT INTO health_sample (id, account_id, type, value, unit, source, start, "end")
        VALUES (?, 'acc', ?, ?, 'count', ?, '2026-11-10T09:00:00.000Z', '2026-11-10T09:10:00.000Z')
        """, id, HealthType.steps, value, source)
    }
    try Migrator(all).migrate(db)
    let kinds = try db.query("SELECT name, kind FROM health_source ORDER BY name") {
      "\(try $0.get(0, as: String.self))=\(try $0.get(1, as: String.self))"
    }
    #expect(kinds == ["Simon’s Apple Watch=watch", "Simon’s iPhone=phone"])
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
    let store = HealthStore(
      db: db, account: Account(id: "acc", email: "a@example.org", name: nil), now: Date(), calendar: calendar)
    #expect(try store.totals(on: LocalDate("2026-11-10")!).steps == 600)
  }
}

/// A rebuild over months counts windows in parallel on connections of their own; what it counts
/// must be what one sweep over the whole stretch counts, including samples across the windows'
/// edges and one longer than a window's look-back.
@Suite struct HealthTotalsRebuildTests {
  @Test func windowsCountedInParallelAgreeWithOneSweep() throws {
    let t = try TestAccount(zone: "UTC", onDisk: true)
    let replica = Replica(db: t.db, accountID: t.account.id, now: Date())
    let day: Int64 = 86_400_000
    let first: Int64 = 20_400  // 2025-11-09
    var samples: [CumulativeCount.Sample] = []
    var records: [(id: String, values: [DatabaseValue])] = []
    func add(_ rank: Int, _ start: Int64, _ end: Int64, _ value: Double) {
      samples.append(.init(rank: rank, start: start, end: end, value: value))
      let source = rank == 0 ? "Anna’s Apple Watch" : "Anna’s iPhone"
      records.append(
        (
          "s\(records.count)",
          [
            .text(HealthType.steps), .real(value), .text("count"), .text(source),
            .text(ISO8601.string(from: Date(timeIntervalSince1970: Double(start) / 1000))),
            .text(ISO8601.string(from: Date(timeIntervalSince1970: Double(end) / 1000))),
          ]
        ))
    }
    for d in first..<(first + 75) {
      // Across midnight every day, both sources, with edges that do not line up.
      add(0, (d + 1) * day - 600_000, (d + 1) * day + 600_000, 200)
      add(1, (d + 1) * day - 900_000, (d + 1) * day + 300_000, 150)
      add(1, d * day + 36_000_000, d * day + 39_600_000, Double(d % 7) * 100)
    }
    add(1, (first + 29) * day, (first + 33) * day + 1000, 4000)  // four days and a second, over a window edge
    _ = try replica.insertNew(.healthSample, records)
    let store = HealthStore(db: t.db, account: t.account, now: Date(), calendar: t.calendar)
    let oracle = CumulativeCount.count(samples, days: first...(first + 76))
    for d in first...(first + 76) {
      let expected = (0..<2).map { oracle[.init(day: d, rank: $0)]?.reduce(0, +) ?? 0 }.reduce(0, +)
      let got = try store.totals(on: LocalDate(ordinal: Int(d))).steps
      #expect(abs(got - expected) < 1e-6, "day \(d): \(got) ≠ \(expected)")
    }
    // A change on one day counts that day again, not every later day its neighbours reach.
    try t.db.execute("UPDATE health_counted SET quarters = zeroblob(768) WHERE day = ?", first + 60)
    try HealthStore(db: t.db, account: t.account, now: Date(), calendar: t.calendar).add(
      type: "steps", value: 5, at: Date(timeIntervalSince1970: Double((first + 10) * day + 43_200_000) / 1000))
    #expect(try store.totals(on: LocalDate(ordinal: Int(first + 10))).steps > 0)
    #expect(try store.totals(on: LocalDate(ordinal: Int(first + 60))).steps == 0, "day 60 was not counted again")
  }
}
