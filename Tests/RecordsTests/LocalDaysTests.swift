import Core
import Foundation
import Testing

/// `LocalDays` finds days by arithmetic: it must agree with Foundation's calendar everywhere,
/// at midnight on both sides, across daylight-saving changes, in zones a half or three quarters
/// of an hour off UTC, across the date line, and before 1970.
struct LocalDaysTests {
  @Test(arguments: [
    "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Apia",
    "Pacific/Kiritimati", "America/St_Johns", "UTC",
  ])
  func everyInstantFallsOnTheDayFoundationGives(zone: String) throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: zone))
    let days = LocalDays(calendar)
    // Every 17 minutes and 13 seconds over four years (each hour of the day, DST weeks included),
    // then points either side of each local midnight of a year, and a few before 1970.
    var t = 1_640_995_200.0 - 86_400
    while t < 1_767_225_600 {
      let date = Date(timeIntervalSince1970: t)
      #expect(days.day(date) == LocalDate(date, in: calendar), "\(zone) \(t)")
      t += 1033
    }
    var midnight = LocalDate(Date(timeIntervalSince1970: 1_735_689_600), in: calendar).start(in: calendar)
    for _ in 0..<400 {
      for delta in [-0.001, 0, 0.999] {
        let date = midnight.addingTimeInterval(delta)
        #expect(days.day(date) == LocalDate(date, in: calendar), "\(zone) \(date)")
      }
      midnight = LocalDate(midnight, in: calendar).adding(days: 1).start(in: calendar)
    }
    for t in [-1.0, -86_400.5, -2_000_000_000.25] {
      let date = Date(timeIntervalSince1970: t)
      #expect(days.day(date) == LocalDate(date, in: calendar), "\(zone) \(t)")
    }
  }
}
