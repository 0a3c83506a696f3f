import Foundation

/// A serial executor with a thread of its own, for an actor whose work blocks in SQLite: its
/// jobs run there, one at a time, instead of holding one of the cooperative pool's threads
/// (as many as there are cores) while a query or a commit waits on the disk.
public final class DedicatedThreadExecutor: SerialExecutor, @unchecked Sendable {
  // Sendable by construction: `jobs` and `stopped` are only touched with `condition` locked.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var stopped = false
  private var thread: pthread_t?

  public init(name: String) {
    let thread = Thread { [self] in run() }
    thread.name = name
    thread.start()
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// Lets the thread end once the jobs already queued have run.
  public func shutdown() {
    condition.lock()
    stopped = true
    condition.signal()
    condition.unlock()
  }

  /// Whether the caller runs on this executor's thread.
  public var isCurrent: Bool {
    condition.lock()
    defer { condition.unlock() }
    return thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
  }

  private func run() {
    condition.lock()
    thread = pthread_self()
    condition.unlock()
    while true {
      condition.lock()
      while jobs.isEmpty && !stopped { condition.wait() }
      if jobs.isEmpty {
        condition.unlock()
        return
      }
      let batch = jobs
      jobs.removeAll(keepingCapacity: true)
      condition.unlock()
      for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
    }
  }
}
