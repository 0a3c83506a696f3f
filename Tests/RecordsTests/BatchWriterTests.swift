import Foundation
import Testing

@testable import Interchange
@testable import Records

@Suite struct BatchWriterTests {
  struct Stop: Error, Equatable {}

  /// The sink lives on the writer's thread; what `close` makes of it comes back.
  @Test func everyBatchIsWrittenInOrderOnTheWritersThread() throws {
    let writer = BatchWriter<[Int], [Int]>(
      name: "test writer", open: { [Int]() },
      write: { sink, batch in
        #expect(!Thread.isMainThread)
        sink += batch
      }, close: { $0 })
    for i in stride(from: 0, to: 1000, by: 10) { try writer.submit(Array(i..<i + 10)) }
    #expect(try writer.finish() == Array(0..<1000))
    #expect(try writer.finish() == Array(0..<1000), "finishing again returns the same")
  }

  /// The first error stops the writer: later submits and `finish` throw it, and nothing after
  /// the failing batch is written.
  @Test func theFirstErrorStopsTheWriterAndReachesTheSubmitter() throws {
    let writer = BatchWriter<Int, Int>(
      capacity: 1, name: "test writer", open: { 0 },
      write: { sink, batch in
        if batch == 3 { throw Stop() }
        sink += 1
      }, close: { $0 })
    var thrown = false
    for batch in 0..<100 {
      do {
        try writer.submit(batch)
      } catch is Stop {
        thrown = true
        break
      }
    }
    #expect(thrown, "a submit after the failure throws it")
    #expect(throws: Stop.self) { try writer.finish() }
  }

  @Test func anErrorOpeningTheSinkIsThrownByFinish() throws {
    let writer = BatchWriter<Int, Int>(name: "test writer", open: { throw Stop() }, write: { _, _ in }, close: { $0 })
    #expect(throws: Stop.self) { try writer.finish() }
  }
}
