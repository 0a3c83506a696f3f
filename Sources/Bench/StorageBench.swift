// `vital-bench storage DB ROWS`: the Storage half of scripts/bench. The same schema, pragmas and
// values as scripts/bench-c/storage.c; values are made before the clock starts on both sides.
import Foundation
import Storage

func storageBench(path: String, rows: Int) throws {

  /// splitmix64, so Swift and C draw the same values from the same seed.
  struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  func hex(_ value: UInt64, _ digits: Int) -> String {
    let s = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - s.count)) + s
  }

  var random = SplitMix(state: 42)
  func uuid(_ random: inout SplitMix) -> String {
    let a = random.next()
    let b = random.next()
    return
      "\(hex(a >> 32, 8))-\(hex((a >> 16) & 0xFFFF, 4))-\(hex(a & 0xFFFF, 4))-\(hex(b >> 48, 4))-\(hex(b & 0xFFFF_FFFF_FFFF, 12))"
  }

  struct Row {
    var id, account, kind, status, scheduled: String
    var completed: String?
    var place: String
    var volume: Int64
  }
  let kinds = ["whole-blood", "plasma", "platelets", "double-red"]
  let account = uuid(&random)
  var data: [Row] = []
  data.reserveCapacity(rows)
  for i in 0..<rows {
    let day = i % 28 + 1
    let done = i % 3 != 0
    data.append(
      Row(
        id: uuid(&random), account: account, kind: kinds[i % 4], status: done ? "completed" : "scheduled",
        scheduled: "2026-\(hex(UInt64(i % 9 + 1), 2))-\(day < 10 ? "0" : "")\(day)T09:30:00.000Z",
        completed: done ? "2026-\(hex(UInt64(i % 9 + 1), 2))-\(day < 10 ? "0" : "")\(day)T10:15:00.000Z" : nil,
        place: "Blood centre \(i % 50)", volume: Int64(450 + i % 50)))
  }
  var order = Array(0..<rows)
  for i in stride(from: rows - 1, to: 0, by: -1) {
    order.swapAt(i, Int(random.next() % UInt64(i + 1)))
  }

  func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  try? FileManager.default.removeItem(atPath: path)
  let db = try Database(path: path)
  try db.execute(
    """
    CREATE TABLE donation (
      id TEXT PRIMARY KEY, account_id TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
      scheduled_at TEXT NOT NULL, completed_at TEXT, place TEXT NOT NULL, volume_ml INTEGER NOT NULL
    ) STRICT
    """)

  let insert = try seconds {
    try db.transaction { db in
      for r in data {
        try db.execute(
          "INSERT INTO donation (id, account_id, kind, status, scheduled_at, completed_at, place, volume_ml) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          r.id, r.account, r.kind, r.status, r.scheduled, r.completed, r.place, r.volume)
      }
    }
  }

  var checksum = 0
  let lookup = try seconds {
    for i in order {
      let found = try db.queryFirst(
        "SELECT id, account_id, kind, status, scheduled_at, completed_at, place, volume_ml FROM donation WHERE id = ?",
        data[i].id
      ) { row in
        Row(
          id: try row.get(0), account: try row.get(1), kind: try row.get(2), status: try row.get(3),
          scheduled: try row.get(4), completed: try row.get(5), place: try row.get(6), volume: try row.get(7))
      }
      guard let found else { fatalError("row \(i) missing") }
      checksum += found.id.utf8.count + found.place.utf8.count + Int(found.volume)
    }
  }
  print("insert_seconds \(insert)")
  print("lookup_seconds \(lookup)")
  print("checksum \(checksum)")

}
