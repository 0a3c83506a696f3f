import Foundation
import Testing

@testable import Records

/// A route's parts and one activity recorded twice, small enough to check by hand.
@Suite struct WorkoutRouteTests {
  let t0 = Date(timeIntervalSince1970: 1_794_258_000)

  func point(_ seconds: Double, _ lat: Double, _ ele: Double?) -> RoutePoint {
    RoutePoint(time: t0.addingTimeInterval(seconds), latitude: lat, longitude: 13.404954, elevation: ele)
  }

  @Test func aPartKeepsEachPointAndItsClimbFromThePartBefore() throws {
    let before = point(0, 52.52, 30)
    let points = [point(1.25, 52.520008, 31.5), point(2, 52.5201, 31), point(3, 0.000001, nil), point(4, -33.9, 33)]
    let part = WorkoutRoute(workoutID: "wo-1", part: 1, points: points, after: before)
    #expect(part.id == "wo-1-r1" && part.count == 4 && part.start == points[0].time)
    // 30 → 31.5 → 31 → (none) → 33: 1.5 + 2.
    #expect(part.ascentMetres == 3.5)
    #expect(part.points.hasPrefix("0,52.520008,13.404954,31.5\n750,52.5201,"))
    #expect(part.points.contains("1750,0.000001,13.404954,\n"), "no exponent, an empty elevation")
    #expect(part.decodedPoints() == points)
  }

  @Test func textThatIsNotARoutesReadsAsNone() {
    var part = WorkoutRoute(workoutID: "wo-1", part: 0, points: [point(0, 52.52, 30)], after: nil)
    for damaged in ["0,52.52,13.4", "0,95,13.4,3\n", "x,52.52,13.4,3\n", "0,52.52,13.4,3\n1,52.52,13.4,3\n", ""] {
      part.points = damaged
      #expect(part.decodedPoints() == nil, "\(damaged)")
    }
  }

  func workout(_ source: String, _ from: Double, _ to: Double, type: String = "HKWorkoutActivityTypeRunning")
    -> HealthStore.Workout
  {
    var w = HealthStore.Workout()
    (w.id, w.type, w.source) = ("\(source)-\(from)", type, source)
    (w.start, w.end) = (t0.addingTimeInterval(from * 60), t0.addingTimeInterval(to * 60))
    return w
  }

  @Test func oneActivityRecordedByTwoSourcesCountsOnceTheBestRanked() {
    let rank = ["Watch": 0, "Phone": 1]
    let counted = WorkoutOverlap.counted(
      [
        workout("Phone", 0.5, 30), workout("Watch", 0, 31),
        // Half of the shorter one overlaps: the same run.
        workout("Phone", 100, 140), workout("Watch", 120, 160),
        // Less than half: two runs. Another type, or one source twice: never merged.
        workout("Phone", 200, 240), workout("Watch", 225, 265),
        workout("Watch", 300, 330, type: "HKWorkoutActivityTypeWalking"), workout("Phone", 300, 330),
        workout("Watch", 400, 430), workout("Watch", 401, 431),
      ], rank: rank)
    #expect(
      counted.map { "\($0.workout.id)/\($0.others.compactMap(\.source).joined())" } == [
        "Watch-0.0/Phone", "Watch-120.0/Phone", "Phone-200.0/", "Watch-225.0/", "Phone-300.0/", "Watch-300.0/",
        "Watch-400.0/", "Watch-401.0/",
      ])
  }

  @Test func activitiesReadAsPeopleSayThem() {
    #expect(WorkoutActivity.name("HKWorkoutActivityTypeTraditionalStrengthTraining") == "traditional-strength-training")
    #expect(WorkoutActivity.type("traditional-strength-training") == "HKWorkoutActivityTypeTraditionalStrengthTraining")
    #expect(WorkoutActivity.type("Running") == "HKWorkoutActivityTypeRunning")
    #expect(WorkoutActivity.name("SomethingElse") == "SomethingElse")
  }
}
