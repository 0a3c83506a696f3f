// vital-bench: the Swift halves of scripts/bench.
//   vital-bench storage DB ROWS   Storage inserts and lookups (compare scripts/bench-c/storage.c)
//   vital-bench kdf RUNS          the scrypt KDF at the standard cost, one time per line
//   vital-bench seed-donations HOME N   N donations through the synced write path
//   vital-bench apply DB N        merges N remote records into an empty database (sync, no network)
//   vital-bench seal N            seals and opens N donation records (end-to-end encryption alone)
import Auth
import Foundation
import Replication
import Schema
import Storage

let arguments = CommandLine.arguments
switch (arguments.dropFirst().first, arguments.count) {
case ("storage", 4):
  guard let rows = Int(arguments[3]), rows > 0 else { exit(64) }
  try storageBench(path: arguments[2], rows: rows)
case ("kdf", 3):
  guard let runs = Int(arguments[2]), runs > 0 else { exit(64) }
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = try PasswordHasher.standard.hash("a benchmark passphrase")
    print("kdf_seconds \(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)")
  }
case ("seed-donations", 4):
  // Fills a home's logged-in account with N completed donations through the synced write path.
  guard let rows = Int(arguments[3]), rows > 0 else { exit(64) }
  let db = try Database(path: arguments[2] + "/vital.sqlite")
  guard let account = try db.scalar(String.self, "SELECT id FROM account LIMIT 1") else { exit(1) }
  let replica = Replica(db: db, accountID: account, now: Date())
  try db.transaction { _ in
    for i in 0..<rows {
      try replica.write(
        .donation, id: UUID().uuidString.lowercased(),
        [
          "kind": .text("plasma"), "status": .text("completed"), "scheduled_at": .null,
          // 220 minutes apart, as the donor bench's history: 100,000 a day apart would reach back
          // to 1749, which the donation rules refuse.
          "completed_at": .text(ISO8601.string(from: Date(timeIntervalSince1970: 1_700_000_000 - Double(i) * 13_200))),
          "place": .text("Blood centre \(i % 50)"), "notes": i % 5 == 0 ? .text("felt fine") : .null,
        ])
    }
  }
case ("seal", 3):
  guard let rows = Int(arguments[2]), rows > 0 else { exit(64) }
  try sealBench(rows: rows)
case ("apply", 4):
  // Merges N remote donation records into an empty database, pages of 5000: the local half of
  // an initial sync, without the network.
  guard let rows = Int(arguments[3]), rows > 0 else { exit(64) }
  let db = try VitalSchema.open(path: arguments[2])
  try db.execute("INSERT INTO account (id, email, password_hash, created_at) VALUES ('a', 'a@b.c', 'x', '2026')")
  let replica = Replica(db: db, accountID: "a", now: Date())
  let hlc = HLC("2026-11-22T10:00:00.000Z-0000-0123456789abcdef")!
  let start = DispatchTime.now().uptimeNanoseconds
  for page in stride(from: 0, to: rows, by: 5000) {
    try db.transaction { _ in
      for i in page..<min(rows, page + 5000) {
        let fields: [String: (value: DatabaseValue, hlc: HLC)] = [
          "kind": (.text("plasma"), hlc), "status": (.text("completed"), hlc), "scheduled_at": (.null, hlc),
          "completed_at": (.text("2025-01-01T10:00:00.000Z"), hlc), "place": (.text("Centre \(i % 50)"), hlc),
          "notes": (.null, hlc),
        ]
        try replica.apply(.donation, id: UUID().uuidString.lowercased(), fields, observeClock: false)
      }
    }
  }
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  print("apply_seconds \(seconds) records_per_second \(Int(Double(rows) / seconds))")
default:
  FileHandle.standardError.write(
    Data("usage: vital-bench storage DB ROWS | kdf RUNS | seed-donations HOME ROWS | apply DB N | seal N\n".utf8))
  exit(64)
}
