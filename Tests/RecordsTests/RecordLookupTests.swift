import Foundation
import Storage
import Testing

@testable import Records

/// Ids as git takes hashes, for every kind of record: whole, or a unique prefix of 4 or more.
@Suite struct RecordLookupTests {
  let t: TestAccount
  let lookup = RecordLookup(kind: "goal", listCommand: "vital goals list", table: "goal")

  init() throws {
    t = try TestAccount()
    let goals = GoalStore(db: t.db, account: t.account, now: Date(), calendar: t.calendar)
    for (id, target) in [("catalogue-10", 1.0), ("catalogue-100", 2.0), ("catalogue-101", 3.0)] {
      try goals.write(Goal(id: id, kind: .steps, target: target, title: nil, description: nil, reward: nil))
    }
    try goals.write(
      Goal(
        id: "3f2a1b9c-0000-4000-8000-000000000000", kind: .steps, target: 4, title: nil, description: nil, reward: nil))
  }

  func find(_ key: String) throws -> String { try lookup.id(key, account: t.account.id, in: t.db) }

  @Test func aWholeIdWinsOverTheIdsItIsThePrefixOf() throws {
    #expect(try find("catalogue-10") == "catalogue-10")
    #expect(try find("catalogue-101") == "catalogue-101")
  }

  @Test func aUniquePrefixOfFourOrMoreFindsItInAnyCase() throws {
    #expect(try find("3f2a") == "3f2a1b9c-0000-4000-8000-000000000000")
    #expect(try find("3F2A1B") == "3f2a1b9c-0000-4000-8000-000000000000")
  }

  @Test func anAmbiguousPrefixNamesTheMatchesAndATooShortOneIsNotGuessed() throws {
    #expect(throws: RecordLookup.Failure.self) { try find("catalogue-1") }
    do {
      _ = try find("catalogue-1")
    } catch let failure as RecordLookup.Failure {
      #expect(failure.description.contains("3 goal ids"))
      #expect(failure.description.contains("give more characters"))
    }
    #expect(throws: RecordLookup.Failure.notFound(kind: "goal", id: "3f2", listCommand: "vital goals list")) {
      try find("3f2")
    }
    #expect(throws: RecordLookup.Failure.notFound(kind: "goal", id: "zzzz", listCommand: "vital goals list")) {
      try find("zzzz")
    }
  }

  @Test func anotherAccountsIdsAreNotFound() throws {
    #expect(throws: RecordLookup.Failure.self) {
      try lookup.id("3f2a", account: "someone-else", in: t.db)
    }
  }

  @Test func shortIDsTellNeighboursApartAndKeepEightAtLeast() {
    let ids = ["3f2a1b9c-aaaa", "3f2a1b9c-aabb", "77770000-0000", "catalogue-10", "catalogue-100"]
    let short = ShortID.prefixes(ids)
    #expect(short["3f2a1b9c-aaaa"] == "3f2a1b9c-aaa")
    #expect(short["3f2a1b9c-aabb"] == "3f2a1b9c-aab")
    #expect(short["77770000-0000"] == "77770000")
    #expect(short["catalogue-10"] == "catalogue-10", "a whole id that is another's prefix stays whole")
    #expect(short["catalogue-100"] == "catalogue-100")
    #expect(Set(short.values).count == ids.count)
  }
}
