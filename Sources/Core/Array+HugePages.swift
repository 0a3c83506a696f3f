#if canImport(Glibc)
  import Glibc
#endif

extension Array {
  /// Reserves room for `capacity` elements and, where that room spans whole 2 MiB pages (from
  /// 4 MiB on), asks the kernel to back them with such pages. Each 4 KiB page of a fresh buffer
  /// costs a fault on its first write (some 4 µs on a virtual machine); a 2 MiB page costs one.
  /// For buffers of many megabytes filled once, as an export's lines: a 100,000-row export
  /// faulted some 6,000 pages for its buffers, a sixth of its time. Only advice: with huge pages
  /// off (`never`) or on another system the buffer is as `reserveCapacity` makes it; with the
  /// kernel's default `defrag=madvise` a first write may wait while it gathers a free huge page.
  public mutating func reserveCapacityInHugePages(_ capacity: Int) {
    reserveCapacity(capacity)
    #if os(Linux) && canImport(Glibc)
      let huge = 2 << 20
      let bytes = capacity * MemoryLayout<Element>.stride
      guard bytes >= 2 * huge else { return }
      withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress.map(UnsafeMutableRawPointer.init) else { return }
        // The whole huge pages inside the allocation: its start rounded up, its end down.
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + bytes) & ~(huge - 1)
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, Int32(MADV_HUGEPAGE))
      }
    #endif
  }
}
