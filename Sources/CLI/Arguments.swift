import ArgumentParser
import Foundation
import Health
import Storage

extension BloodType: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }
  public static var allValueStrings: [String] { ["A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-"] }
}

extension Sex: ExpressibleByArgument {}
extension Region: ExpressibleByArgument {}

extension LocalDate: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }
}

extension DonationKind: ExpressibleByArgument {}
extension Questionnaire.Language: ExpressibleByArgument {}

/// A date-time as typed: `YYYY-MM-DDTHH:MM` or `YYYY-MM-DD HH:MM` in the local zone, or an
/// ISO 8601 instant with an offset. It is placed on the time line by `App.instant(_:)`, which
/// knows the zone.
struct DateTimeArgument: ExpressibleByArgument {
  let text: String
  let fields: ISO8601.Fields

  init?(argument: String) {
    guard let fields = ISO8601.fields(from: argument) else { return nil }
    self.text = argument
    self.fields = fields
  }
}
