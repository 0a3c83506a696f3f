/// Bytes copied for parameters bound until the statement's next reset (`bindUntilReset`), and
/// which parameters point at them. Copies go into one buffer; one that does not fit goes into a
/// buffer of its own. Nothing moves while bound: the buffer grows only in `reuse`, to what the
/// run before needed, up to `largestBuffer`. A cached statement keeps its buffer until it is
/// finalized, as SQLite kept its own copies of the last run's values.
struct BindArena {
  /// The largest value copied; SQLite's own copy of a larger one costs little more.
  static let largest = 4096
  /// The largest buffer kept: a run that needs more copies the rest into buffers of their own,
  /// freed at the next reset.
  static let largestBuffer = 1 << 20

  private var buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
  private var used = 0
  private var needed = 0
  private var overflow: [UnsafeMutableRawBufferPointer] = []
  /// Parameters bound to this run's copies.
  private var copied: [Int32] = []

  /// Whether a copy was made this run, bound or not (a bind that failed after it).
  var inUse: Bool { needed > 0 }

  /// A copy of `bytes`, valid until `reuse`; nil for no bytes (SQLite reads a NULL pointer as
  /// NULL) and for more than `largest`.
  mutating func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
    guard let source = bytes.baseAddress, !bytes.isEmpty, bytes.count <= Self.largest else { return nil }
    needed += bytes.count
    let target: UnsafeMutableRawPointer
    if buffer.count - used >= bytes.count, let base = buffer.baseAddress {
      target = base + used
      used += bytes.count
    } else {
      let own = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
      overflow.append(own)
      target = own.baseAddress!
    }
    target.copyMemory(from: source, byteCount: bytes.count)
    return UnsafeRawPointer(target)
  }

  /// Parameter `index` now points at a copy.
  mutating func noteCopied(_ index: Int32) {
    copied.append(index)
  }

  /// Ends the run: `unbind` is called with each parameter bound to a copy, then their memory is
  /// reused, grown to what this run needed.
  mutating func reuse(unbind: (Int32) -> Void) {
    for index in copied { unbind(index) }
    copied.removeAll(keepingCapacity: true)
    for own in overflow { own.deallocate() }
    overflow.removeAll(keepingCapacity: true)
    if needed > buffer.count, buffer.count < Self.largestBuffer {
      buffer.deallocate()
      buffer = .allocate(byteCount: min(max(needed, 2 * buffer.count), Self.largestBuffer), alignment: 1)
    }
    used = 0
    needed = 0
  }

  func deallocate() {
    for own in overflow { own.deallocate() }
    buffer.deallocate()
  }
}
