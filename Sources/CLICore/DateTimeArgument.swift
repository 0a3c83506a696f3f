import ArgumentParser
import Storage

/// A date-time as typed: `YYYY-MM-DDTHH:MM`, `YYYY-MM-DD HH:MM` or `YYYY-MM-DD` (midnight) in the local zone, or an
/// ISO 8601 instant with an offset. It is placed on the time line by `App.instant(_:)`, which
/// knows the zone.
public struct DateTimeArgument: ExpressibleByArgument, Sendable {
  public let text: String
  public let fields: ISO8601.Fields

  public init?(argument: String) {
    if let fields = ISO8601.fields(from: argument) {
      self.fields = fields
    } else if let (y, m, d) = ISO8601.day(from: argument) {
      // A bare date is the start of that local day.
      self.fields = ISO8601.Fields(
        year: y, month: m, day: d, hour: 0, minute: 0, second: 0, millisecond: 0, offset: nil)
    } else {
      return nil
    }
    self.text = argument
  }
}
