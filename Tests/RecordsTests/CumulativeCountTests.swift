import Testing

@testable import Records

/// The counting rule on its own: ranks, times in minutes from midnight UTC of day 0.
@Suite struct CumulativeCountTests {
  static func sample(_ rank: Int, _ from: Double, _ to: Double, _ value: Double) -> CumulativeCount.Sample {
    .init(rank: rank, start: Int64(from * 60_000), end: Int64(to * 60_000), value: value)
  }

  /// What each rank counts over day 0 (and day 1 when asked).
  static func counted(_ samples: [CumulativeCount.Sample], days: ClosedRange<Int64> = 0...0) -> [Int: Double] {
    var byRank: [Int: Double] = [:]
    for (key, quarters) in CumulativeCount.count(samples, days: days) {
      byRank[key.rank, default: 0] += quarters.reduce(0, +)
    }
    return byRank
  }

  static func close(_ a: Double?, _ b: Double) -> Bool { abs((a ?? .nan) - b) < 1e-6 }

  @Test func theWatchCountsWhereItWasWornAndThePhoneOnlyOutside() {
    // Watch 600 steps 10:00-10:10, iPhone 1,000 steps 10:05-10:15: 600 + 500.
    let c = Self.counted([Self.sample(0, 600, 610, 600), Self.sample(1, 605, 615, 1000)])
    #expect(Self.close(c[0], 600))
    #expect(Self.close(c[1], 500))
  }

  @Test func aSampleOverMidnightSplitsByDuration() {
    // 200 steps 23:50-00:10: 100 on each day.
    let result = CumulativeCount.count([Self.sample(0, 1430, 1450, 200)], days: 0...1)
    #expect(Self.close(result[.init(day: 0, rank: 0)]?.reduce(0, +), 100))
    #expect(Self.close(result[.init(day: 1, rank: 0)]?.reduce(0, +), 100))
    // The window sees only its own share.
    #expect(Self.close(Self.counted([Self.sample(0, 1430, 1450, 200)], days: 1...1)[0], 100))
  }

  @Test func threeNestedSourcesEachCountWhereNoBetterOneDid() {
    // A (first) 10:20-10:30 60; B 10:10-10:40 300; C 10:00-10:50 500.
    let c = Self.counted([
      Self.sample(0, 620, 630, 60), Self.sample(1, 610, 640, 300), Self.sample(2, 600, 650, 500),
    ])
    #expect(Self.close(c[0], 60))
    #expect(Self.close(c[1], 200), "20 of B's 30 minutes are outside A")
    #expect(Self.close(c[2], 200), "20 of C's 50 minutes are outside A and B")
  }

  @Test func aLowerSourceInsideAHigherOneCountsNothingButIsListed() {
    let result = CumulativeCount.count([Self.sample(0, 600, 660, 900), Self.sample(1, 610, 620, 400)], days: 0...0)
    #expect(Self.close(result[.init(day: 0, rank: 0)]?.reduce(0, +), 900))
    #expect(result[.init(day: 0, rank: 1)]?.reduce(0, +) == 0, "present with 0 counted")
  }

  @Test func identicalDuplicatesOfOneSourceCountOnce() {
    let s = Self.sample(1, 600, 610, 321)
    #expect(Self.close(Self.counted([s, s, s])[1], 321))
    // Two different samples of one source over the same minutes are both counted.
    #expect(Self.close(Self.counted([s, Self.sample(1, 600, 610, 100)])[1], 421))
  }

  @Test func instantsCountAtTheirInstantUnlessABetterSourceCoversIt() {
    let c = Self.counted([
      Self.sample(0, 600, 610, 100),  // a better interval
      Self.sample(1, 605, 605, 50),  // under it: not counted
      Self.sample(1, 610, 610, 70),  // at its end: [start, end) no longer covers it
      Self.sample(0, 700, 700, 30),  // an instant of the best source
      Self.sample(1, 600, 600, 5),  // at the better one's start: covered
    ])
    #expect(Self.close(c[0], 130))
    #expect(Self.close(c[1], 70))
  }

  @Test func quartersAreUTCQuarterHours() {
    // 10:05-10:20: 10 minutes in the 10:00 quarter, 5 in the 10:15 one.
    let result = CumulativeCount.count([Self.sample(0, 605, 620, 150)], days: 0...0)
    let quarters = try! #require(result[.init(day: 0, rank: 0)])
    #expect(Self.close(quarters[40], 100))
    #expect(Self.close(quarters[41], 50))
  }

  @Test func badValuesAndTimesBefore1970AreLeftOut() {
    let c = Self.counted([
      Self.sample(0, 600, 610, .nan), Self.sample(0, 600, 610, .infinity),
      .init(rank: 0, start: -120_000, end: 60_000, value: 5), Self.sample(1, 600, 610, 10),
    ])
    #expect(c[0] == nil)
    #expect(Self.close(c[1], 10))
  }

  @Test func unsortedInputCountsTheSame() {
    let samples = (0..<200).map { i in
      Self.sample(i % 3, Double(i * 7 % 1400), Double(i * 7 % 1400 + 5 + i % 11), Double(i))
    }
    let sorted = Self.counted(samples.sorted { $0.start < $1.start })
    for other in [Self.counted(samples), Self.counted(samples.reversed())] {
      #expect(Set(other.keys) == Set(sorted.keys))
      for (rank, value) in sorted { #expect(Self.close(other[rank], value)) }
    }
  }
}
