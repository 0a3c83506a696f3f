import Foundation
import Sync

/// Seals and opens N donation-shaped records: the cost encryption adds to a sync, without the
/// network or the database.
func sealBench(rows: Int) throws {
  let sealer = try Sealer(key: try DataKey.generate())
  let hlc = "2026-11-22T10:00:00.000Z-0000-0123456789abcdef"
  let changes = (0..<rows).map { i in
    WireChange(
      dataset: "donation", id: UUID().uuidString.lowercased(),
      fields: [
        "kind": WireField(value: .string("plasma"), hlc: hlc),
        "status": WireField(value: .string("completed"), hlc: hlc),
        "scheduled_at": WireField(value: .null, hlc: hlc),
        "completed_at": WireField(value: .string("2025-01-01T10:00:00.000Z"), hlc: hlc),
        "place": WireField(value: .string("Blood centre \(i % 50)"), hlc: hlc),
        "notes": WireField(value: .null, hlc: hlc),
      ])
  }
  var start = DispatchTime.now().uptimeNanoseconds
  let sealed = try changes.map { try sealer.seal($0) }
  let sealSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  start = DispatchTime.now().uptimeNanoseconds
  let opened = try sealed.map { try sealer.open($0) }
  let openSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  guard opened == changes else { fatalError("records did not open to themselves") }
  print("seal_seconds \(sealSeconds)")
  print("open_seconds \(openSeconds)")
}
