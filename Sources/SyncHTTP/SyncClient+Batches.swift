import Cryptography
import Foundation
import Replication
import Storage
import Sync

/// A push is cut by bytes as well as by count, so that no request nears the server's body
/// limit, whatever the records hold; a record that cannot be sent is set aside, never left to
/// block the outbox (docs/sync-protocol.md, "Limits").
extension SyncClient {
  /// A change as it goes on the wire, and the record it came from (a sealed id says nothing).
  struct Outgoing {
    var wire: WireChange
    var dataset: String
    var id: String
  }

  /// The next outbox entries to push (after `seq`: those of a request still on its way wait
  /// there): whole records, at most `batchSize` entries, `SyncLimits.changesPerRequest` records
  /// and about `budget` bytes on the wire. A record holding a value larger than any server takes
  /// is set aside on the way (`setAside` collects them).
  func nextBatch(after seq: Int64 = 0, budget: Int, sealed: Bool, setAside: inout [Replica.SetAside]) throws
    -> [Replica.Pending]
  {
    // Records still set aside (the sync began by queueing again those that fit) stay out: an
    // edit of one field would reach other devices as a record with only that field. It goes
    // whole once it fits.
    let held = Set(try replica.setAsideRecords().map { $0.dataset + "\u{0}" + $0.id })
    while true {
      // Whole records are read only until the batch would be over its bytes or its count: `cut`
      // then ends it before the record that went over.
      var bytes = 0
      // Records counted as runs of entries, so one that comes back later counts again: reading
      // stops early at worst. A set of every record read cost a first push of 100,000 records a
      // twentieth of the device's time, hashing and growing.
      var records = 0
      var rows = 0
      var last: (dataset: String, id: String)?
      let read = try replica.pending(limit: batchSize, after: seq, in: datasets, compact: true) { entries in
        rows += 1
        // The entries of one outbox entry, so of one record.
        guard let first = entries.first else { return false }
        for entry in entries { bytes += Self.estimatedBytes(entry, sealed: sealed) }
        if last?.id != first.id || last?.dataset != first.dataset {
          records += 1
          last = (first.dataset, first.id)
        }
        return bytes > budget || records > SyncLimits.changesPerRequest
      }
      if read.isEmpty, rows > 0 {
        // Every entry read sends nothing (whole records gone without a tombstone): left where
        // they are, a full batch of them would end every push there, and what follows would
        // never go.
        try replica.dropFromOutbox(after: seq, count: rows)
        continue
      }
      // Stopped by the count or the limit, the last record read may go on in entries not read:
      // it waits for the next batch, from its first entry.
      let pending = Self.wholeRecords(read, cut: records > SyncLimits.changesPerRequest || rows >= batchSize)
      if !held.isEmpty, let kept = pending.first(where: { held.contains($0.dataset + "\u{0}" + $0.id) }) {
        try replica.dropFromOutbox(kept.dataset, id: kept.id)
        continue
      }
      if let (over, field, bytes) = Self.oversized(pending) {
        setAside.append(
          try record(
            over.dataset, id: over.id,
            reason:
              "its \(field) holds \(Replica.describe(bytes: bytes)), more than a value may (\(Replica.describe(bytes: Replica.maxValueBytes)))",
            bytes: bytes))
        continue
      }
      return Self.cut(pending, budget: budget, sealed: sealed)
    }
  }

  /// Sets record `id` aside and returns what `vital sync` reports of it.
  func record(_ dataset: String, id: String, reason: String, bytes: Int) throws -> Replica.SetAside {
    try replica.setAside(dataset, id: id, reason: reason, bytes: bytes)
    return Replica.SetAside(dataset: dataset, id: id, reason: reason, bytes: bytes, at: now)
  }

  /// The first entries of `pending` that fit `budget` estimated bytes and `records` records,
  /// ending on a whole record; the first record goes alone when it is larger than the budget
  /// by itself.
  static func cut(
    _ pending: consuming [Replica.Pending], budget: Int, sealed: Bool, records: Int = SyncLimits.changesPerRequest
  ) -> [Replica.Pending] {
    // Read in place: a copy of each entry (five texts) cost more than the rest of the cut.
    let end = pending.withUnsafeBufferPointer { pending in
      var total = 0
      // The entries of a record mostly follow each other: runs of them count the records at
      // most once each too many. Only when the runs are over the count are records told apart.
      func sameRecord(_ index: Int) -> Bool {
        index > 0 && pending[index - 1].id == pending[index].id && pending[index - 1].dataset == pending[index].dataset
      }
      let runs = pending.indices.reduce(0) { $0 + (sameRecord($1) ? 0 : 1) }
      var seen = Set<String>(minimumCapacity: runs > records ? min(pending.count, records + 1) : 0)
      for index in pending.indices {
        total += estimatedBytes(pending[index], sealed: sealed)
        // A record begins here that no longer fits the count: the ones before it go, whole.
        if runs > records, !sameRecord(index),
          seen.insert(pending[index].dataset + "\u{0}" + pending[index].id).inserted, seen.count > records
        {
          return index
        }
        guard total > budget, index > 0 else { continue }
        // A whole-record entry expands to several with one seq: never split one.
        let seq = pending[index].seq
        var end = index
        while end > 0, pending[end - 1].seq == seq { end -= 1 }
        if end == 0 { end = pending.firstIndex { $0.seq != seq } ?? pending.count }
        // The record the budget ran out in waits for the next batch, all of it.
        let (dataset, id) = (pending[end - 1].dataset, pending[end - 1].id)
        if let start = pending[..<end].firstIndex(where: { $0.id == id && $0.dataset == dataset }), start > 0 {
          end = start
        }
        return end
      }
      return pending.count
    }
    pending.removeSubrange(end...)
    return pending
  }

  /// The first entry holding a value larger than any server takes, which field, and its bytes.
  static func oversized(_ pending: [Replica.Pending]) -> (Replica.Pending, field: String, bytes: Int)? {
    for entry in pending {
      var over: (String, Int)?
      entry.forEachField { field, value in
        let bytes = Replica.byteCount(of: value)
        if over == nil, bytes > Replica.maxValueBytes { over = (field, bytes) }
      }
      if let (field, bytes) = over { return (entry, field, bytes) }
    }
    return nil
  }

  /// About what an outbox entry takes in a request: for each field, its value (a third more,
  /// sealed) and the names and clock around it.
  static func estimatedBytes(_ entry: Replica.Pending, sealed: Bool) -> Int {
    let id = entry.id.utf8.count
    func bytes(_ field: String, _ value: DatabaseValue) -> Int {
      let value = Replica.byteCount(of: value)
      return 96 + field.utf8.count + id + (sealed ? value * 4 / 3 + 96 : value + value / 16)
    }
    guard let whole = entry.whole else { return bytes(entry.field, entry.value) }
    return whole.names.indices.reduce(0) { $0 + bytes(whole.names[$1], whole.values[$1]) }
  }

  /// A push batch read from the outbox and made ready to go: its entries, and its records as
  /// they travel (sealed, their blobs uploaded), cut to `budget` bytes.
  struct Batch {
    var pending: [Replica.Pending]
    var outgoing: [Outgoing]
    /// The changes of `outgoing` as JSON (`WireJSON.encode(_:sharedClocks:)`).
    var encoded: [UInt8]
    var budget: Int
  }

  /// The next batch after outbox entry `seq`, ready to send.
  func prepare(after seq: Int64, budget: Int, sealer: Sealer?, token: String, setAside: inout [Replica.SetAside])
    async throws -> Batch
  {
    let pending = try nextBatch(after: seq, budget: budget, sealed: sealer != nil, setAside: &setAside)
    let outgoing = try await outgoing(Self.group(pending), sealer: sealer, token: token)
    return Batch(
      pending: pending, outgoing: outgoing,
      encoded: WireJSON.encode(outgoing.map(\.wire), sharedClocks: serverSharesClocks),
      budget: budget)
  }

  /// Outbox entries as records: the newest value of each field (later entries of a device's
  /// outbox carry later clock readings).
  static func group(_ pending: [Replica.Pending]) -> [WireChange] {
    var changes: [WireChange] = []
    // Where each record is, by id; by dataset and id for an id that another dataset has too.
    // Keyed by the id alone, no key is made (a key joined of both cost a first push of 100,000
    // records a tenth of its grouping).
    var positions: [String: Int] = Dictionary(minimumCapacity: min(pending.count, SyncLimits.changesPerRequest))
    var shared: [String: Int] = [:]
    var last: Int?
    // The fields of a record written at once share a clock: its text is made once.
    var clock: (hlc: HLC, text: String)?
    // Read in place, as `cut` reads them.
    pending.withUnsafeBufferPointer { pending in
      for index in pending.indices {
        // The entries of a record mostly follow each other: the one before is tried first.
        let position: Int
        if let last, changes[last].id == pending[index].id, changes[last].dataset == pending[index].dataset {
          position = last
        } else {
          let (dataset, id) = (pending[index].dataset, pending[index].id)
          // One hash for a record not met before, as nearly all are: its place goes in, and only
          // an id there already is put back.
          if let known = positions.updateValue(changes.count, forKey: id) {
            positions[id] = known
            if changes[known].dataset == dataset {
              position = known
            } else if let other = shared[dataset + "\u{0}" + id] {
              position = other
            } else {
              position = changes.count
              shared[dataset + "\u{0}" + id] = position
              changes.append(WireChange(dataset: dataset, id: id, fields: WireFields()))
            }
          } else {
            position = changes.count
            changes.append(WireChange(dataset: dataset, id: id, fields: WireFields()))
          }
        }
        last = position
        if clock?.hlc != pending[index].hlc { clock = (pending[index].hlc, pending[index].hlc.description) }
        let hlc = clock!.text
        // One field, as most entries are, without a closure: through one, grouping a push of
        // 600,000 field entries took half as long again.
        guard let whole = pending[index].whole else {
          // Room for a whole record.
          if changes[position].fields.isEmpty { changes[position].fields.reserveCapacity(16) }
          changes[position].fields[pending[index].field] = WireField(value: WireValue(pending[index].value), hlc: hlc)
          continue
        }
        if changes[position].fields.isEmpty {
          // A record read whole, as most imported ones are: its names are its dataset's, one
          // array for all.
          changes[position].fields = WireFields(
            inOrder: whole.names, whole.values.map { WireField(value: WireValue($0), hlc: hlc) })
        } else {
          for place in whole.names.indices {
            changes[position].fields[whole.names[place]] = WireField(value: WireValue(whole.values[place]), hlc: hlc)
          }
        }
      }
    }
    return changes
  }

  /// The changes as they go on the wire, blob bytes uploaded first (sealed when encryption is
  /// on: a sealed blob's server name is the hash of its sealed bytes).
  func outgoing(_ changes: [WireChange], sealer: Sealer?, token: String) async throws -> [Outgoing] {
    var wire: [Outgoing] = []
    wire.reserveCapacity(changes.count)
    for change in changes {
      guard change.dataset == Dataset.blobName else {
        wire.append(Outgoing(wire: try sealer?.seal(change) ?? change, dataset: change.dataset, id: change.id))
        continue
      }
      let data = try db.scalar(
        Data.self, "SELECT data FROM blob WHERE account_id = ? AND sha256 = ?", accountID, change.id)
      guard let sealer else {
        // Dropped from this device's cache: the server keeps its copy.
        if let data {
          _ = try await send(
            "PUT", "/v1/blobs/\(change.id)", body: data, token: token, contentType: "application/octet-stream")
        }
        wire.append(Outgoing(wire: change, dataset: change.dataset, id: change.id))
        continue
      }
      guard let data else { continue }  // sealed blobs are named by their bytes: none, no name
      let sealed = try sealer.sealBlob(data)
      let sealedChange = try sealer.seal(change, sealedBlob: sealed)
      _ = try await send(
        "PUT", "/v1/blobs/\(sealedChange.id)", body: sealed, token: token, contentType: "application/octet-stream")
      wire.append(Outgoing(wire: sealedChange, dataset: change.dataset, id: change.id))
    }
    return wire
  }
}
