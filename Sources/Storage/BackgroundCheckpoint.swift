internal import CSQLite
import Foundation
import Synchronization

/// Copies the write-ahead log into the database on a thread and a connection of its own while
/// one connection goes on writing it (a first sync writes a hundred megabytes of log). Without
/// it the log was copied when the writer closed, on its core, after its last write: a fifth
/// of a first sync of 100,000 records, with the other core idle.
///
/// Each copy is passive: it copies what the log holds when it starts and waits for nobody.
/// The writer still copies the log itself once it holds `limit` pages (as `wal_autocheckpoint`
/// would), so the log stays bounded if the thread falls behind. `stop()` before the writer
/// closes; the writer's own rules (`wal_autocheckpoint`) are back after.
public final class BackgroundCheckpoint: @unchecked Sendable {
  private let writer: Database
  private let every: Int32
  private let limit: Int32
  private struct State {
    /// Log pages when the copier was last asked to copy.
    var asked: Int32 = 0
    var due = false
    var stopped = false
    /// The thread is made (and its connection opened, there) at the first copy asked for: a
    /// sync of one record never needs one, and opening a connection cost it milliseconds.
    var started = false
  }
  private let state = Mutex(State())
  private let wakeUp = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)

  /// Copies the log of `writer`'s database each time its commits add `every` pages, from the
  /// first time they do.
  public init(for writer: Database, every: Int32, limit: Int32) {
    precondition(writer.path != ":memory:", "a database in memory has no log to copy")
    self.writer = writer
    self.every = every
    self.limit = limit
    // The hook replaces SQLite's automatic checkpoint, which is one such hook.
    sqlite3_wal_hook(
      writer.handle,
      { context, db, name, pages in
        guard let context else { return SQLITE_OK }
        Unmanaged<BackgroundCheckpoint>.fromOpaque(context).takeUnretainedValue().logged(pages, db: db, name: name)
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  /// After a commit of the writer, on its thread: the log holds `pages`.
  private func logged(_ pages: Int32, db: OpaquePointer?, name: UnsafePointer<CChar>?) {
    if pages >= limit {
      sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
      return
    }
    let (ask, start) = state.withLock { state -> (Bool, Bool) in
      // A log started again from its beginning counts from there.
      if pages < state.asked { state.asked = 0 }
      guard pages - state.asked >= every, !state.due, !state.stopped else { return (false, false) }
      state.asked = pages
      state.due = true
      defer { state.started = true }
      return (true, !state.started)
    }
    if start {
      let thread = Thread { [self] in run() }
      thread.name = "checkpoint"
      thread.start()
    }
    if ask { wakeUp.signal() }
  }

  private func run() {
    // Without a second connection (no descriptor left, the file held alone elsewhere) the
    // writer's limit, or its close, copies the log.
    let copier = try? Database(path: writer.path)
    while true {
      wakeUp.wait()
      let stopped = state.withLock { state in
        state.due = false
        return state.stopped
      }
      if stopped { break }
      // Busy (another copy under way) or failed: the writer's limit, or its close, copies.
      if let copier { _ = sqlite3_wal_checkpoint_v2(copier.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) }
    }
    done.signal()
  }

  /// Ends the copying (waiting for a copy under way) and gives the writer back its automatic
  /// checkpoint; again, does nothing. Until it is called a thread once started keeps this
  /// object, and its connection, alive.
  public func stop() {
    let (first, started) = state.withLock { state in
      defer { state.stopped = true }
      return (!state.stopped, state.started)
    }
    guard first else { return }
    sqlite3_wal_autocheckpoint(writer.handle, 1000)
    guard started else { return }
    wakeUp.signal()
    done.wait()
  }
}
