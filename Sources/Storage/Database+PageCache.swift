extension Database {
  /// Runs `body` with SQLite's page cache held to `kibibytes`, then gives it back its size. For a
  /// scan that reads each page once: the cache keeps nothing such a scan reads again, and each
  /// page it keeps is memory the process faults in fresh (a 100,000-row export took some 6,000
  /// page faults for it, a third of its own).
  public func withPageCache<T>(kibibytes: Int, _ body: () throws -> T) throws -> T {
    guard let size = try scalar(Int.self, "PRAGMA cache_size") else { return try body() }
    try execute("PRAGMA cache_size = \(-max(kibibytes, 1))")
    // A size that cannot be set back leaves a smaller cache: slower, never wrong.
    defer { _ = try? execute("PRAGMA cache_size = \(size)") }
    return try body()
  }
}
