import ArgumentParser
import Health
import Storage

extension BloodType: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }
  public static var allValueStrings: [String] { ["A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-"] }
}

extension Sex: ExpressibleByArgument {}
extension Region: ExpressibleByArgument {}

/// A calendar date as `YYYY-MM-DD`, checked to exist.
struct Day: ExpressibleByArgument, CustomStringConvertible {
  let year: Int, month: Int, day: Int

  init?(argument: String) {
    guard let (y, m, d) = ISO8601.day(from: argument) else { return nil }
    (year, month, day) = (y, m, d)
  }

  var description: String {
    String(format: "%04d-%02d-%02d", year, month, day)
  }
}
