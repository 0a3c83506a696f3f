// A helper for the crash-safety test: `storage-writer seed PATH N` commits N rows;
// `storage-writer flood PATH` opens one transaction, writes rows forever and says "writing"
// once a few thousand are in, so the test can SIGKILL it mid-transaction; `flood-journal` does
// the same as a bulk write (`withRollbackJournal`).
import Foundation
import Storage

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
  FileHandle.standardError.write(Data("usage: storage-writer seed|flood|flood-journal PATH [N]\n".utf8))
  exit(64)
}
let db = try Database(path: arguments[2])
try db.execute("CREATE TABLE IF NOT EXISTS item (id TEXT PRIMARY KEY, n INTEGER NOT NULL, body TEXT NOT NULL) STRICT")
let body = String(repeating: "x", count: 1000)

switch arguments[1] {
case "seed":
  let count = Int(arguments.count > 3 ? arguments[3] : "1000") ?? 1000
  try db.transaction { db in
    for n in 0..<count {
      try db.execute("INSERT INTO item (id, n, body) VALUES (?, ?, ?)", UUID(), n, body)
    }
  }
case "flood":
  try flood(db, body: body)
case "flood-journal":
  try db.withRollbackJournal { try flood(db, body: body) }
default:
  exit(64)
}

func flood(_ db: Database, body: String) throws {
  // A small page cache, so uncommitted pages must spill into the WAL (or the database, with a
  // journal) well before the commit.
  try db.execute("PRAGMA cache_size=-2000")
  try db.transaction { db in
    var n = 1_000_000
    while true {
      try db.execute("INSERT INTO item (id, n, body) VALUES (?, ?, ?)", UUID(), n, body)
      n += 1
      // 20,000 rows of 1 KB are far more than the page cache: pages spill before the commit
      // that never comes.
      if n == 1_020_000 {
        FileHandle.standardOutput.write(Data("writing\n".utf8))
      }
    }
  }
}
