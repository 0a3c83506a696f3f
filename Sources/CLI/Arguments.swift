import ArgumentParser
import CLICore
import Core
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
