import Foundation
import Synchronization

/// A serial executor with a thread of its own, for an actor whose work blocks in SQLite: its
/// jobs run there, one at a time, instead of holding one of the cooperative pool's threads
/// (as many as there are cores) while a query or a commit waits on the disk.
public final class DedicatedThreadExecutor: SerialExecutor {
  private struct State {
    var jobs: [UnownedJob] = []
    var stopped = false
    var thread: pthread_t?
  }
  private let state = Mutex(State())
  /// Signalled once per job queued and once for shutdown: the thread sleeps on it when idle.
  private let wakeUp = DispatchSemaphore(value: 0)

  public init(name: String) {
    let thread = Thread { [self] in run() }
    thread.name = name
    thread.start()
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    state.withLock { $0.jobs.append(job) }
    wakeUp.signal()
  }

  public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// Lets the thread end once the jobs already queued have run.
  public func shutdown() {
    state.withLock { $0.stopped = true }
    wakeUp.signal()
  }

  /// Whether the caller runs on this executor's thread.
  public var isCurrent: Bool {
    state.withLock { $0.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
  }

  private func run() {
    state.withLock { $0.thread = pthread_self() }
    while true {
      wakeUp.wait()
      let (jobs, stopped) = state.withLock { state in
        defer { state.jobs.removeAll(keepingCapacity: true) }
        return (state.jobs, state.stopped)
      }
      for job in jobs { job.runSynchronously(on: asUnownedSerialExecutor()) }
      if stopped && jobs.isEmpty { return }
    }
  }
}
