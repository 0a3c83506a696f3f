import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records
import Storage

extension BloodType: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }
  public static var allValueStrings: [String] { ["A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-"] }
}

extension Sex: ExpressibleByArgument {}
extension Region: ExpressibleByArgument {}

extension LocalDate: ExpressibleByArgument {
  /// A day from 1900 to 2200: no record is older or further ahead, and year 0001 is a typo.
  public init?(argument: String) {
    guard let day = LocalDate(argument), (1900...2200).contains(day.year) else { return nil }
    self = day
  }
}

extension DonationKind: ExpressibleByArgument {}
extension Questionnaire.Language: ExpressibleByArgument {}
