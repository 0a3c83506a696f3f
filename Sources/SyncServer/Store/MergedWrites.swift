import Replication
import Sync

/// A stored record as a sync request finds it: its fields as kept, and its sequence number.
struct StoredRecord: Sendable {
  let fields: String
  let seq: Int64
}

/// What a request's changes do to the records they name, worked out in memory: the merged
/// records to write with their new sequence numbers, what they add to the account's totals,
/// and which of them the answer leaves out (`EchoFilter`). Both repositories merge this way.
struct MergedWrites {
  private(set) var datasets: [String] = []
  private(set) var ids: [String] = []
  private(set) var fields: [String] = []
  private(set) var seqs: [Int64] = []
  /// Whether each record was stored before this request: a new one is inserted, without the
  /// lookup an upsert makes first.
  private(set) var isNew: [Bool] = []
  /// Changes that changed something (a record named twice counts twice, as it is sent twice).
  private(set) var accepted = 0
  private(set) var grownBytes: Int64 = 0
  private(set) var newRecords: Int64 = 0
  /// The user's counter after the writes.
  private(set) var seq: Int64
  private(set) var echo: EchoFilter
  /// The sequence numbers the rewritten records had: they leave those places.
  private(set) var moved: [Int64] = []

  /// A record's place in `stored`: hashed as two texts, not joined into one (a first push
  /// joined 100,000, each a new String).
  struct Key: Hashable {
    let dataset: String
    let id: String
  }

  static func key(_ dataset: String, _ id: String) -> Key { Key(dataset: dataset, id: id) }

  /// Merges `changes` into `stored` (by `key`), numbering writes after `seq`.
  init(_ changes: [ValidatedChange], stored: [Key: StoredRecord], seq: Int64, since: Int64) throws {
    self.seq = seq
    echo = EchoFilter(since: since)
    // Where each record written by this request is in the lists, and its fields as merged.
    var slot: [Key: Int] = [:]
    // Grown from empty, it was rehashed a dozen times over a first push's 5,000 records.
    slot.reserveCapacity(changes.count)
    var current: [WireFields] = []
    var writer = WireJSON.FieldsWriter()
    for change in changes {
      let key = Self.key(change.dataset, change.id)
      let at = slot[key]
      let before = at == nil && !stored.isEmpty ? stored[key] : nil
      let fields = try at.map { current[$0] } ?? before.map { try WireJSON.fields($0.fields) } ?? WireFields()
      guard let merged = FieldMerge.merge(fields, change.fields, clock: \.hlc) else { continue }
      // A field sent that lost: the sender learns the one that won.
      let stale = !fields.isEmpty && change.fields.contains { name, field in merged[name]?.hlc != field.hlc }
      self.seq += 1
      // A new record is what came: its fields are stored as they were sent, when they were sent
      // as nothing but fields.
      let json = fields.isEmpty ? change.sent ?? writer.encode(merged) : writer.encode(merged)
      if let at {
        // Written earlier in this request: the later write replaces it.
        echo.wrote(seq: self.seq, storedSeq: seqs[at], stale: stale)
        grownBytes += Int64(json.utf8.count - self.fields[at].utf8.count)
        self.fields[at] = json
        seqs[at] = self.seq
        current[at] = merged
      } else {
        echo.wrote(seq: self.seq, storedSeq: before?.seq, stale: stale)
        grownBytes += Int64(json.utf8.count - (before?.fields.utf8.count ?? 0))
        if let before { moved.append(before.seq) } else { newRecords += 1 }
        slot[key] = ids.count
        datasets.append(change.dataset)
        ids.append(change.id)
        self.fields.append(json)
        seqs.append(self.seq)
        isNew.append(before == nil)
        current.append(merged)
      }
      accepted += 1
    }
  }

  /// Whether the account grows: then the quota applies (a write that shrinks it is taken).
  var grew: Bool { grownBytes > 0 || newRecords > 0 }

  /// The written records that go back to the sender, in the order they were numbered.
  var resent: [PageRow] {
    let resend = Set(echo.kept.resend)
    return seqs.indices.filter { resend.contains(seqs[$0]) }.map {
      PageRow(dataset: datasets[$0], id: ids[$0], fields: fields[$0], seq: seqs[$0])
    }.sorted { $0.seq < $1.seq }
  }
}

/// A stored record after the cursor, as a page query reads it: without its fields when it
/// lies past the page's byte bound (it only says "more").
struct PageRow: Sendable {
  let dataset: String
  let id: String
  let fields: String?
  let seq: Int64

  /// A record of a page as JSON, written into a string sized for it once: interpolated, the
  /// string was sized for the short parts and grew twice or more around the fields, each time
  /// copying them (a pull page is 5,000 records of them).
  static func json(dataset: String, id: String, fields: String) -> String {
    let dataset = WireJSON.quote(dataset)
    let id = WireJSON.quote(id)
    var out = ""
    out.reserveCapacity(32 + dataset.utf8.count + id.utf8.count + fields.utf8.count)
    out += #"{"dataset":"#
    out += dataset
    out += #","id":"#
    out += id
    out += #","fields":"#
    out += fields
    out += "}"
    return out
  }

  /// The answer's page: `rows` (stored records after the cursor, read before this request's
  /// writes and without the records it rewrote) and then, once all of them fit, the written
  /// records that go back. The same bounds as a page read after the writes would keep.
  static func page(_ rows: [PageRow], then resent: [PageRow], start: Int64, bounds: PageBounds, echo: EchoFilter)
    -> (changes: [String], cursor: Int64, hasMore: Bool)
  {
    var page: [String] = []
    var bytes = 0
    var last = start
    // The stored rows first; the written ones only when every stored row fitted.
    for row in rows.sorted(by: { $0.seq < $1.seq }) + resent {
      guard page.count < bounds.count, bytes < bounds.bytes, let fields = row.fields else {
        return (page, echo.cursor(last: last, hasMore: true), true)
      }
      page.append(json(dataset: row.dataset, id: row.id, fields: fields))
      bytes += fields.utf8.count
      last = row.seq
    }
    return (page, echo.cursor(last: last, hasMore: false), false)
  }
}
