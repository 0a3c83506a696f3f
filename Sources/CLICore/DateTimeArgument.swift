import ArgumentParser
import Storage

/// A date-time as typed: `YYYY-MM-DDTHH:MM` or `YYYY-MM-DD HH:MM` in the local zone, or an
/// ISO 8601 instant with an offset. It is placed on the time line by `App.instant(_:)`, which
/// knows the zone.
public struct DateTimeArgument: ExpressibleByArgument, Sendable {
  public let text: String
  public let fields: ISO8601.Fields

  public init?(argument: String) {
    guard let fields = ISO8601.fields(from: argument) else { return nil }
    self.text = argument
    self.fields = fields
  }
}
