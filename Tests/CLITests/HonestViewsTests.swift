import Foundation
import Testing

/// What a new user met over a simulated week: one name per quantity with units, days without
/// data that read as zero, a missed appointment still "(today)", a period under way that
/// shortened the prediction.
@Suite struct HonestViewsTests {
  let vital: VitalHome

  init() throws {
    vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-21T12:00:00Z"  // Saturday 13:00 in Berlin
    try ExportImportTests.register(vital, "honest@example.org")
  }

  func ok(_ arguments: [String]) throws -> Run {
    let run = try vital.run(arguments)
    #expect(run.status == 0, "\(arguments): \(run.stderr)")
    return run
  }

  /// A week of data that ends on Wednesday 18 November, as an export made that day has.
  func aWeekEndingWednesday() throws {
    for day in 12...18 {
      try _ = ok(["health", "add", "--type", "steps", "--value", "\(6000 + day * 100)", "--at", "2026-11-\(day)T12:00"])
      try _ = ok(["health", "add", "--type", "distance", "--value", "4.\(day)km", "--at", "2026-11-\(day)T12:00"])
    }
  }

  /// `goals add --type walking-distance`, `health trend --type distance`, `health add --type
  /// distance-m`; `--target 5km` refused without saying the target is in metres; progress
  /// printed as "7745/5000 walking-distance".
  @Test func oneNamePerQuantityWithUnitsInAndOut() throws {
    let goal = try #require(try ok(["goals", "add", "--type", "distance", "--target", "5km", "--json"]).object)
    #expect(
      goal["type"] as? String == "distance" && goal["target"] as? Double == 5000 && goal["unit"] as? String == "m")
    let old = try #require(try ok(["goals", "add", "--type", "walking-distance", "--target", "3 mi", "--json"]).object)
    #expect(old["type"] as? String == "distance", "the old name is an alias")
    #expect(abs((old["target"] as? Double ?? 0) - 4828.032) < 0.001)
    expectCleanError(try vital.run(["goals", "add", "--type", "distance", "--target", "5"]), mentioning: "5km")
    expectCleanError(try vital.run(["goals", "add", "--type", "steps", "--target", "5 parsecs"]), mentioning: "steps")
    #expect(try vital.run(["goals", "add", "--type", "energy", "--target", "5"]).status == 64)

    try _ = ok(["health", "add", "--type", "distance", "--value", "7.745 km", "--at", "09:00"])
    try _ = ok(["health", "add", "--type", "distance-m", "--value", "100", "--at", "10:00"])
    try _ = ok(["health", "add", "--type", "energy", "--value", "320kcal", "--at", "10:00"])
    let exercise = try #require(try ok(["health", "add", "--type", "exercise", "--value", "1h30m", "--json"]).object)
    #expect(exercise["value"] as? Double == 90 && exercise["unit"] as? String == "min")
    let listed = try #require(try ok(["health", "list", "--type", "distance", "--json"]).json as? [[String: Any]])
    #expect(listed.count == 2 && listed.allSatisfy { $0["type"] as? String == "distance" })

    let progress = try ok(["goals", "progress"]).stdout
    #expect(progress.contains("7.8 km of 5 km  distance"), "\(progress)")
    #expect(progress.contains("of 4.8 km"))
    let trend = try #require(
      try ok(["health", "trend", "--type", "distance", "--days", "1", "--json"]).json as? [[String: Any]])
    #expect(trend.first?["total"] as? Double == 7845 && trend.first?["unit"] as? String == "m")
    let goalTrend = try ok(["health", "trend", "--type", "distance", "--days", "1", "--goal", "10km", "--json"])
    #expect((goalTrend.json as? [[String: Any]])?.first?["met"] as? Bool == false)
  }

  /// An export that ended on 18 Nov made `health trend` print 0 for every later day and the
  /// today view draw goal bars at 0 %.
  @Test func daysWithoutDataAreNoDataNotZero() throws {
    try aWeekEndingWednesday()
    try _ = ok(["goals", "add", "--type", "steps", "--target", "8000"])
    let trend = try #require(
      try ok(["health", "trend", "--type", "steps", "--days", "5", "--json"]).json as? [[String: Any]])
    #expect(trend.map { $0["total"] as? Double } == [7700, 7800, nil, nil, nil])
    #expect(
      trend.suffix(3).allSatisfy { $0["total"] is NSNull && $0["met"] is NSNull && $0["days_with_data"] as? Int == 0 })
    let text = try ok(["health", "trend", "--type", "steps", "--days", "5"]).stdout
    #expect(text.contains("2026-11-19     –"), "\(text)")
    #expect(text.contains("last data Wed 18 Nov"))
    let weeks = try #require(
      try ok(["health", "trend", "--type", "steps", "--weeks", "1", "--json"]).json as? [[String: Any]])
    #expect(weeks.first?["days_with_data"] as? Int == 3 && weeks.first?["goal"] as? Double == 24000, "16 to 18 Nov")

    let today = try #require(try ok(["--json"]).object)
    let goals = try #require(today["goals"] as? [[String: Any]])
    #expect(goals.first?["value"] is NSNull && goals.first?["percent"] is NSNull)
    #expect(goals.first?["last_data"] as? String == "2026-11-18")
    let screen = try ok([]).stdout
    #expect(screen.contains("[no data since Wed 18 Nov]  goal 8000 steps"), "\(screen)")
    #expect(!screen.contains("0%"))
    let progress = try #require(try ok(["goals", "progress", "--json"]).json as? [[String: Any]])
    #expect(progress.first?["value"] is NSNull)
    #expect(
      (try ok(["goals", "progress", "--date", "2026-11-18", "--json"]).json as? [[String: Any]])?.first?["value"]
        as? Double == 7800)
  }

  /// A missed appointment was still "(today)" four hours after it, in the today view and in
  /// `donor status`.
  @Test func aMissedAppointmentIsMissedWithTheCommandThatMovesIt() throws {
    try vital.becomeADonorWhoMayBook()
    try _ = ok(["donor", "book", "--at", "2026-11-23T09:00", "--place", "DRK Mitte"])
    vital.environment["VITAL_NOW"] = "2026-11-23T08:30:00Z"  // 09:30: under way
    var status = try #require(try ok(["donor", "status", "--json"]).object)
    #expect(status["overdue"] as? Bool == true && status["missed"] as? Bool == false)
    vital.environment["VITAL_NOW"] = "2026-11-23T12:00:00Z"  // 13:00, four hours after it
    status = try #require(try ok(["donor", "status", "--json"]).object)
    #expect(status["missed"] as? Bool == true)
    #expect((status["advice"] as? [String])?.first?.contains("vital donor reschedule") == true)
    let text = try ok(["donor", "status"]).stdout
    #expect(text.contains("Missed appointment: today 09:00, whole blood"), "\(text)")
    #expect(!text.contains("(today)"))
    let today = try ok([]).stdout
    #expect(today.contains("today 09:00, missed") && today.contains("vital donor reschedule"), "\(today)")
    #expect(try ok(["--json"]).object?["missed"] as? Bool == true)
    try _ = ok(["donor", "reschedule", "--at", "2026-11-25T09:00"])
    #expect(try ok(["donor", "status", "--json"]).object?["missed"] as? Bool == false)
  }

  /// With one day of flow noted, the predicted period length dropped from 5 to 4 days and
  /// "period started: 2026-12-05 to 2026-12-05, 1 days" was printed.
  @Test func aPeriodUnderWayDoesNotShortenThePrediction() throws {
    vital.environment["VITAL_NOW"] = "2026-12-05T08:00:00Z"
    for (start, end) in [
      ("2026-08-08", "2026-08-12"), ("2026-09-05", "2026-09-09"), ("2026-10-03", "2026-10-07"),
      ("2026-10-31", "2026-11-04"),
    ] {
      try _ = ok(["cycle", "add", "--start", start, "--end", end])
    }
    #expect(try ok(["cycle", "predict", "--json"]).object?["period_length"] as? Int == 5)
    let note = try ok(["cycle", "note", "--flow", "medium"]).stdout
    #expect(note.contains("period started today"), "\(note)")
    #expect(!note.contains("1 days"))
    #expect(try ok(["cycle", "predict", "--json"]).object?["period_length"] as? Int == 5, "not 4")
    let list = try ok(["cycle", "list"]).stdout
    #expect(list.contains(/2026-12-05 +under way +day 1/) && !list.contains("1 days"), "\(list)")
    vital.environment["VITAL_NOW"] = "2026-12-09T08:00:00Z"
    #expect(try ok(["cycle", "predict", "--json"]).object?["period_length"] as? Int == 4, "once over, it counts")
  }

  /// `health summary` of a day with energy and exercise only printed steps 0 and 0.00 km.
  @Test func aSummaryOfADayWithoutStepsSaysNoDataForThem() throws {
    try _ = ok(["health", "add", "--type", "energy", "--value", "300kcal", "--at", "09:00"])
    let summary = try #require(try ok(["health", "summary", "--json"]).object)
    #expect(summary["steps"] is NSNull && summary["walking_running_distance_m"] is NSNull)
    #expect(summary["running_distance_m"] is NSNull)
    #expect(summary["active_energy_kcal"] as? Double == 300)
    let text = try ok(["health", "summary"]).stdout
    #expect(text.contains("steps                 – (no data)") && text.contains("300 kcal"), "\(text)")
  }

  /// A period six days late was predicted a whole cycle later, with no word of it being late.
  @Test func aLatePeriodIsSaidToBeLate() throws {
    vital.environment["VITAL_NOW"] = "2026-12-03T08:00:00Z"
    for (start, end) in [
      ("2026-08-08", "2026-08-12"), ("2026-09-05", "2026-09-09"), ("2026-10-03", "2026-10-07"),
      ("2026-10-31", "2026-11-04"),
    ] {
      try _ = ok(["cycle", "add", "--start", start, "--end", end])
    }
    let predicted = try #require(try ok(["cycle", "predict", "--json"]).object)
    let late = try #require(predicted["late"] as? [String: Any])
    #expect(late["expected"] as? String == "2026-11-28" && late["days"] as? Int == 5)
    #expect(try ok(["cycle", "predict"]).stdout.contains("5 days late"))
    let today = try ok([]).stdout
    #expect(today.contains("period 5 days late (expected Sat 28 Nov)"), "\(today)")
    #expect(try ok(["--json"]).object.flatMap { $0["cycle"] as? [String: Any] }?["late_days"] as? Int == 5)
  }

  /// "You may donate whole blood today" on the day a period began, while every booking was
  /// refused for it; an appointment booked before it got no word.
  @Test func theDaysAfterAPeriodAreNotEligibleAndABookedAppointmentIsWarned() throws {
    try vital.becomeADonorWhoMayBook()
    try _ = ok(["donor", "book", "--at", "2026-11-24T10:00", "--place", "DRK Mitte"])
    vital.environment["VITAL_NOW"] = "2026-11-22T08:00:00Z"
    try _ = ok(["cycle", "note", "--flow", "medium"])
    let eligibility = try #require(try ok(["donor", "eligibility", "--json"]).object)
    #expect(eligibility["eligible"] as? Bool == false && eligibility["next_eligible"] as? String == "2026-11-28")
    #expect(try ok(["donor", "eligibility"]).stdout.contains("from Sat 28 Nov"))
    let status = try #require(try ok(["donor", "status", "--json"]).object)
    #expect((status["advice"] as? [String])?.first?.contains("move it to 2026-11-28 or later") == true, "\(status)")
    #expect(try ok([]).stdout.contains("may donate     from Sat 28 Nov"))
  }
}
