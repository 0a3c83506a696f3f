import Dispatch
import Synchronization

extension Array where Element: Sendable {
  /// `map` with the elements taken at once on the machine's threads (an import's pieces,
  /// say): the results in order, and of several errors the one `map` would have met first.
  ///
  /// The array is consumed and each element handed to its transform, so the element is freed
  /// on that thread: freeing millions of small values is shared out as well.
  consuming func concurrentMap<T: Sendable>(_ transform: @Sendable (consuming Element) throws -> T) throws -> [T] {
    let count = self.count
    guard count > 1 else { return try map { try transform($0) } }
    let slots = Mutex<[Element?]>(map { $0 })
    self = []
    let results = Mutex<[Result<T, any Error>?]>([Result<T, any Error>?](repeating: nil, count: count))
    DispatchQueue.concurrentPerform(iterations: count) { index in
      let element = slots.withLock { $0[index].take()! }
      let result: Result<T, any Error>
      do { result = .success(try transform(consume element)) } catch { result = .failure(error) }
      results.withLock { $0[index] = result }
    }
    return try results.withLock { all in try all.map { try $0!.get() } }
  }
}
