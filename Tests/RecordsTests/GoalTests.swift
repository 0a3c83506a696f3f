import Core
import Foundation
import Storage
import Testing

@testable import Records

@Suite struct GoalTests {
  let t: TestAccount

  init() throws { t = try TestAccount() }

  @Test func progressIsTheRealPercentageAndMayPassAHundred() throws {
    let now = t.local("2026-11-22 20:00")
    let health = HealthStore(db: t.db, account: t.account, now: now, calendar: t.calendar)
    try health.add(type: "steps", value: 4000, at: t.local("2026-11-22 09:00"))
    try health.add(type: "steps", value: 3333, at: t.local("2026-11-22 18:00"))
    try health.add(type: "steps", value: 9999, at: t.local("2026-11-21 23:59"))
    try health.add(type: "distance-m", value: 1500, at: t.local("2026-11-22 10:00"))
    let goals = GoalStore(db: t.db, account: t.account, now: now, calendar: t.calendar)
    try goals.add(.steps, target: 6000, title: "Walk")
    try goals.add(.walkingDistance, target: 4000, title: nil)
    let progress = try goals.progress(on: LocalDate("2026-11-22")!).goals
    let steps = try #require(progress.first { $0.goal.kind == .steps })
    #expect(steps.value == 7333)
    #expect(abs((steps.percent ?? 0) - 122.21666) < 0.0001)
    let walk = try #require(progress.first { $0.goal.kind == .walkingDistance })
    #expect(walk.percent == 37.5, "not 0 from integer division")
  }

  @Test func theCatalogueImportsOnceAndBadOnesChangeNothing() throws {
    let goals = GoalStore(db: t.db, account: t.account, now: Date(), calendar: t.calendar)
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/seeds/ihealth_Goals.json")
    let data = try Data(contentsOf: url)
    #expect(try goals.importCatalogue(data) == (6, 0))
    #expect(try goals.importCatalogue(data) == (0, 6))
    let list = try goals.list()
    #expect(list.filter { $0.kind == .runningDistance }.map(\.target).sorted() == [1000, 5000])
    #expect(list.first { $0.id == "catalogue-1005" }?.reward == "{\"points\":43,\"trophy\":\"zombie_hand\"}")
    #expect(throws: GoalStore.Failure.self) {
      _ = try goals.importCatalogue(Data("{\"items\":[{\"id\":\"9\",\"type\":\"swim\",\"goal\":5}]}".utf8))
    }
    #expect(throws: GoalStore.Failure.self) { _ = try goals.importCatalogue(Data("[1,2]".utf8)) }
    #expect(try goals.list().count == 6)
  }
}
