import Foundation
import Storage
import Testing

/// An actor whose jobs run on a DedicatedThreadExecutor, as the SQLite server repository's do.
private actor OnItsOwnThread {
  let executor = DedicatedThreadExecutor(name: "vital test executor")
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
  var inside = 0
  var overlapped = false
  var count = 0

  deinit { executor.shutdown() }

  /// Whether it ran on the executor's thread; notes whether another job was inside at the same time.
  func work() -> Bool {
    inside += 1
    defer { inside -= 1 }
    if inside > 1 { overlapped = true }
    count += 1
    usleep(100)
    return executor.isCurrent
  }
}

@Suite struct DedicatedThreadExecutorTests {
  @Test func anActorsJobsRunOnItsThreadOneAtATime() async {
    let actor = OnItsOwnThread()
    let onItsThread = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<200 { group.addTask { await actor.work() } }
      var all: [Bool] = []
      for await answer in group { all.append(answer) }
      return all
    }
    #expect(onItsThread.count == 200 && onItsThread.allSatisfy { $0 })
    #expect(!actor.executor.isCurrent, "the test itself runs elsewhere")
    #expect(await actor.count == 200)
    #expect(await actor.overlapped == false)
  }
}
