import Synchronization

extension RecordShape {
  /// A property of `Record`, reached through a key path made the first time it is used: a key
  /// path is built at run time (tens of thousands of instructions each, through the demangler),
  /// and every command describes every kind of record when it starts but touches few of them.
  @usableFromInline final class Property<Path: PartialKeyPath<Record>>: Sendable {
    @usableFromInline let keyPath: @Sendable () -> Path
    /// The property's offset in the record once looked up; -1 for one with no offset (a
    /// computed property), Int.min before the first look.
    @usableFromInline let found = Atomic<Int>(Int.min)

    @inlinable init(_ keyPath: @escaping @Sendable () -> Path) { self.keyPath = keyPath }

    /// The property's offset in the record, or -1 when it has none.
    @inlinable var offset: Int {
      let known = found.load(ordering: .relaxed)
      if known != Int.min { return known }
      // Threads that come here at once all find the same offset and store the same value.
      let offset = MemoryLayout<Record>.offset(of: keyPath()) ?? -1
      found.store(offset, ordering: .relaxed)
      return offset
    }
  }
}
