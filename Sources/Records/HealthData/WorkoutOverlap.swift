import Foundation

/// One activity recorded by two sources at once (a watch and a phone app both tracking the
/// same run) is one workout: the best-ranked source's, as for steps. Two workouts are the same
/// activity when they are of one type, from different sources, and overlap for at least half
/// of the shorter one.
public enum WorkoutOverlap {
  /// `workouts` in time order with each activity once; `others` are the copies left out for it.
  public static func counted(
    _ workouts: [HealthStore.Workout], rank: [String: Int]
  ) -> [(workout: HealthStore.Workout, others: [HealthStore.Workout])] {
    let sorted = workouts.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    let order = { (w: HealthStore.Workout) in rank[w.source ?? ""] ?? Int.max }
    var kept: [(workout: HealthStore.Workout, others: [HealthStore.Workout])] = []
    // Indexes into `kept` of workouts that may still overlap the next ones.
    var open: [Int] = []
    for workout in sorted {
      open.removeAll { kept[$0].workout.end <= workout.start }
      guard let same = open.first(where: { sameActivity(kept[$0].workout, workout) }) else {
        open.append(kept.count)
        kept.append((workout, []))
        continue
      }
      let other = kept[same].workout
      if (order(workout), workout.source ?? "") < (order(other), other.source ?? "") {
        kept[same] = (workout, kept[same].others + [other])
      } else {
        kept[same].others.append(workout)
      }
    }
    return kept.sorted { ($0.workout.start, $0.workout.id) < ($1.workout.start, $1.workout.id) }
  }

  static func sameActivity(_ a: HealthStore.Workout, _ b: HealthStore.Workout) -> Bool {
    guard a.type == b.type, (a.source ?? "") != (b.source ?? "") else { return false }
    let overlap = min(a.end, b.end).timeIntervalSince(max(a.start, b.start))
    let shorter = min(a.end.timeIntervalSince(a.start), b.end.timeIntervalSince(b.start))
    return overlap > 0 && overlap >= shorter / 2
  }
}
