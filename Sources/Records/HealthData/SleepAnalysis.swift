import Core
import Foundation

/// Nights from sleep samples of several sources: each moment takes the state its best-ranked
/// source gives it, as steps count once per moment (`CumulativeCount`), so a watch's stages win
/// over a phone app's "asleep", and samples that overlap count once. "In bed" is a layer of its
/// own: a moment is in bed when any source says so or gives it a stage.
public enum SleepAnalysis {
  /// Stretches in bed apart by less than this are one night (up at 3 am for a glass of water).
  public static let sessionGap: TimeInterval = 2 * 3600

  /// A stretch of time with one answer: the state the best source gives it (nil where only
  /// "in bed" is known), and who said so.
  struct Segment: Equatable {
    var start: Date
    var end: Date
    var state: SleepState?
    var source: String

    var seconds: Int { Int(end.timeIntervalSince(start).rounded()) }
  }

  /// Every night (and the naps beside it) the samples tell, oldest first. `rank` gives each
  /// source's place (0 is first); a source it lacks ranks after all the others.
  public static func nights(_ samples: [SleepSample], rank: [String: Int], calendar: Calendar) -> [SleepNight] {
    let sessions = Self.sessions(segments(samples, rank: rank))
    let byDay = Dictionary(grouping: sessions) { LocalDate($0.last!.end, in: calendar) }
    var reported: [String: Set<SleepState>] = [:]
    for sample in samples { reported[sample.source, default: []].insert(sample.state) }
    return byDay.keys.sorted().map { day in
      let candidates = byDay[day]!.map { summary($0, day: day, rank: rank, reported: reported) }
      // The night is the longest sleep that ended on the day; the others were naps.
      let night = candidates.indices.max {
        (candidates[$0].inBed, candidates[$0].asleep ?? 0) < (candidates[$1].inBed, candidates[$1].asleep ?? 0)
      }!
      var result = candidates[night]
      result.naps = candidates.indices.filter { $0 != night }.map {
        SleepNight.Nap(
          start: candidates[$0].bedtime, end: candidates[$0].wake, inBed: candidates[$0].inBed,
          asleep: candidates[$0].asleep)
      }
      return result
    }
  }

  /// Time cut where any sample begins or ends; each stretch some sample covers, with the state
  /// of the best-ranked stage sample over it. Ties within a source go to the sample begun last.
  static func segments(_ samples: [SleepSample], rank: [String: Int]) -> [Segment] {
    var events: [(time: Date, sample: Int, begins: Bool)] = []
    for (index, sample) in samples.enumerated() where sample.end > sample.start {
      events.append((sample.start, index, true))
      events.append((sample.end, index, false))
    }
    events.sort { $0.time < $1.time }
    func better(_ a: Int, _ b: Int) -> Bool {
      let (x, y) = (samples[a], samples[b])
      let (rx, ry) = (rank[x.source] ?? .max, rank[y.source] ?? .max)
      if rx != ry { return rx < ry }
      if x.start != y.start { return x.start > y.start }
      return (x.state.rawValue, x.source) < (y.state.rawValue, y.source)
    }
    var stages = Set<Int>()
    var beds = Set<Int>()
    var segments: [Segment] = []
    var next = 0
    while next < events.count {
      let time = events[next].time
      while next < events.count && events[next].time == time {
        let event = events[next]
        if samples[event.sample].state == .inBed {
          if event.begins { beds.insert(event.sample) } else { beds.remove(event.sample) }
        } else {
          if event.begins { stages.insert(event.sample) } else { stages.remove(event.sample) }
        }
        next += 1
      }
      guard next < events.count, let decider = stages.min(by: better) ?? beds.min(by: better) else { continue }
      let state = samples[decider].state == .inBed ? nil : samples[decider].state
      let segment = Segment(start: time, end: events[next].time, state: state, source: samples[decider].source)
      if let last = segments.last, last.end == segment.start, last.state == segment.state,
        last.source == segment.source
      {
        segments[segments.count - 1].end = segment.end
      } else {
        segments.append(segment)
      }
    }
    return segments
  }

  /// Segments grouped into sleeps: a gap of `sessionGap` or more starts another.
  static func sessions(_ segments: [Segment]) -> [[Segment]] {
    var sessions: [[Segment]] = []
    for segment in segments {
      if let last = sessions.last?.last, segment.start.timeIntervalSince(last.end) < sessionGap {
        sessions[sessions.count - 1].append(segment)
      } else {
        sessions.append([segment])
      }
    }
    return sessions
  }

  /// One sleep's figures. `reported`: the states each source gives anywhere in the samples.
  static func summary(
    _ session: [Segment], day: LocalDate, rank: [String: Int], reported: [String: Set<SleepState>] = [:]
  ) -> SleepNight {
    var stages: [SleepState: Int] = [:]
    for segment in session { if let state = segment.state { stages[state, default: 0] += segment.seconds } }
    let staged = session.contains { $0.state != nil }
    let asleepIndices = session.indices.filter { session[$0].state?.isAsleep == true }
    var periods = 0
    if let first = asleepIndices.first, let last = asleepIndices.last, first < last {
      for index in first + 1..<last where session[index].state == .awake {
        let before = session[index - 1]
        if before.state != .awake || before.end != session[index].start { periods += 1 }
      }
    }
    let sources = Set(session.map(\.source)).sorted { (rank[$0] ?? .max, $0) < (rank[$1] ?? .max, $1) }
    // Only a staged night has stages to be unknown: an unstaged one has none at all.
    let told = sources.reduce(into: Set<SleepState>()) { $0.formUnion(reported[$1] ?? []) }
    let stagedNight = session.contains { [.core, .deep, .rem].contains($0.state) }
    let unknown = stagedNight && !reported.isEmpty ? Set([SleepState.core, .deep, .rem, .awake]).subtracting(told) : []
    var night = SleepNight(
      day: day, bedtime: session.first!.start, wake: session.last!.end,
      inBed: session.reduce(0) { $0 + $1.seconds },
      asleep: staged ? SleepState.stages.reduce(0) { $0 + stages[$1, default: 0] } : nil,
      stages: stages.filter { $0.key != .awake }, awake: stages[.awake, default: 0], awakePeriods: periods,
      sources: sources, naps: [])
    night.unknown = unknown
    return night
  }
}
