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
  private let copier: Database
  private let every: Int32
  private let limit: Int32
  private struct State {
    /// Log pages when the copier was last asked to copy.
    var asked: Int32 = 0
    var due = false
    var stopped = false
  }
  private let state = Mutex(State())
  private let wakeUp = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)

  /// Starts copying the log of `writer`'s database each time its commits add `every` pages.
  /// Throws when a second connection cannot open the database.
  public init(for writer: Database, every: Int32, limit: Int32) throws {
    precondition(writer.path != ":memory:", "a database in memory has no log to copy")
    self.writer = writer
    copier = try Database(path: writer.path)
    self.every = every
    self.limit = limit
    let thread = Thread { [self] in run() }
    thread.name = "checkpoint"
    thread.start()
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
    let ask = state.withLock { state in
      // A log started again from its beginning counts from there.
      if pages < state.asked { state.asked = 0 }
      guard pages - state.asked >= every, !state.due else { return false }
      state.asked = pages
      state.due = true
      return true
    }
    if ask { wakeUp.signal() }
  }

  private func run() {
    while true {
      wakeUp.wait()
      let stopped = state.withLock { state in
        state.due = false
        return state.stopped
      }
      if stopped { break }
      // Busy (another copy under way) or failed: the writer's limit, or its close, copies.
      _ = sqlite3_wal_checkpoint_v2(copier.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }
    done.signal()
  }

  /// Ends the copying (waiting for a copy under way) and gives the writer back its automatic
  /// checkpoint; again, does nothing. Until it is called the thread keeps this object, and its
  /// connection, alive.
  public func stop() {
    let first = state.withLock { state in
      defer { state.stopped = true }
      return !state.stopped
    }
    guard first else { return }
    sqlite3_wal_autocheckpoint(writer.handle, 1000)
    wakeUp.signal()
    done.wait()
  }
}
