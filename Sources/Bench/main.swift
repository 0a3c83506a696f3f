// vital-bench: the Swift halves of scripts/bench.
//   vital-bench storage DB ROWS   Storage inserts and lookups (compare scripts/bench-c/storage.c)
//   vital-bench kdf RUNS          the scrypt KDF at the standard cost, one time per line
import Auth
import Foundation
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
          "completed_at": .text(ISO8601.string(from: Date(timeIntervalSince1970: 1_700_000_000 - Double(i) * 86_400))),
          "place": .text("Blood centre \(i % 50)"), "notes": i % 5 == 0 ? .text("felt fine") : .null,
        ])
    }
  }
default:
  FileHandle.standardError.write(
    Data("usage: vital-bench storage DB ROWS | kdf RUNS | seed-donations HOME ROWS\n".utf8))
  exit(64)
}
