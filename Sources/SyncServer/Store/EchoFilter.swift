/// Which of the records a sync request wrote its answer leaves out: the sender has them already.
///
/// A request's writes take the sequence numbers `first...last` in one transaction (the user's
/// sequence is held by the request, on either backend). A written record goes back only when
/// the record it merged into was one the sender had not pulled yet (stored after its cursor):
/// then the merged record holds fields the sender has never seen. Otherwise the sender holds
/// every field of it, its own and those it pulled, and sending it back would be a no-op merge;
/// unless a field it sent lost to a newer one stored (`stale`): then the sender holds a value
/// the others do not, and dropped (or never pulled) the one that won (a device drops edits to a
/// record it deleted, and its undo sends the record back as it was), so the record goes back.
/// A change of which every field lost writes nothing, and is not sent back.
/// The answer's cursor still moves past the block when nothing before it is left to send.
struct EchoFilter {
  let since: Int64
  private(set) var first: Int64?
  private(set) var last: Int64?
  /// Written records that go back all the same.
  private(set) var resend: [Int64] = []

  init(since: Int64) { self.since = since }

  /// Notes a record written at `seq` over the stored one at `storedSeq` (nil: a new record);
  /// `stale`: a field the sender sent lost to the one stored.
  mutating func wrote(seq: Int64, storedSeq: Int64?, stale: Bool = false) {
    if let storedSeq, let first, storedSeq >= first {
      // Written earlier in this same request: it moves, and goes back if it went before.
      if let i = resend.firstIndex(of: storedSeq) {
        resend[i] = seq
      } else if stale {
        resend.append(seq)
      }
    } else if stale || storedSeq.map({ $0 > since }) ?? false {
      resend.append(seq)
    }
    if first == nil { first = seq }
    last = seq
  }

  /// The block as bounds to bind: a record is kept when `seq < below || seq > above || seq in
  /// resend` (with nothing written, every record is kept).
  var kept: (below: Int64, above: Int64, resend: [Int64]) { (first ?? .max, last ?? .min, resend) }

  /// The cursor of the answer: past the written block when the page reached the end, else the
  /// last record sent (the rest, echo or not, comes with the next page).
  func cursor(last sent: Int64, hasMore: Bool) -> Int64 {
    guard !hasMore, let last else { return sent }
    return max(sent, last)
  }
}
