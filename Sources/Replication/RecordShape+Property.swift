import Synchronization

extension RecordShape {
  /// Where a property of `Record` is, found the first time a row is read or written: its key path
  /// is made then, not when the shape is described. A key path is built at run time (tens of
  /// thousands of instructions each, through the demangler), and every command describes every
  /// kind of record when it starts but touches few of them. Generic over the record alone, so
  /// that describing a column instantiates no type of its own.
  @usableFromInline final class Property: Sendable {
    @usableFromInline let keyPath: @Sendable () -> AnyKeyPath
    /// The property's offset in the record once looked up; -1 for one with no offset (a
    /// computed property), Int.min before the first look.
    @usableFromInline let found = Atomic<Int>(Int.min)

    @inlinable init(_ keyPath: @escaping @Sendable () -> AnyKeyPath) { self.keyPath = keyPath }

    /// The property's offset in the record, or -1 when it has none.
    @inlinable var offset: Int {
      let known = found.load(ordering: .relaxed)
      if known != Int.min { return known }
      // Threads that come here at once all find the same offset and store the same value.
      let offset = (keyPath() as? PartialKeyPath<Record>).flatMap { MemoryLayout<Record>.offset(of: $0) } ?? -1
      found.store(offset, ordering: .relaxed)
      return offset
    }
  }
}
