import CLIApp
import CLICore
import Core
import Foundation
import Records

/// What a new account is asked on a terminal: the four facts the donation rules need. Each may
/// be skipped with Enter; until all are known, eligibility says what is missing instead of yes.
enum FirstRunQuestions {
  static func ask(_ profile: inout Profile) {
    FileHandle.standardError.write(
      Data("The donation rules need four facts about you (Enter skips one; 'vital profile set' later):\n".utf8))
    if let region = question("Region whose rules apply (de, us, uk)", Region.init(rawValue:)) {
      profile.region = region
      profile.regionChosen = true
    }
    profile.sex = question("Sex (female, male)", Sex.init(rawValue:)) ?? profile.sex
    profile.birthDate = question("Birth date (YYYY-MM-DD)") { LocalDate($0)?.description } ?? profile.birthDate
    profile.weightKg =
      question("Weight in kg") {
        Double($0.replacingOccurrences(of: ",", with: ".")).flatMap { (20...400).contains($0) ? $0 : nil }
      }
      ?? profile.weightKg
  }

  /// Asks up to three times; nil when skipped or never understood.
  private static func question<T>(_ prompt: String, _ parse: (String) -> T?) -> T? {
    for _ in 0..<3 {
      FileHandle.standardError.write(Data("\(prompt): ".utf8))
      guard let line = readLine()?.trimmingCharacters(in: .whitespaces).lowercased(), !line.isEmpty else { return nil }
      if let value = parse(line) { return value }
      FileHandle.standardError.write(Data("  not understood; try again, or press Enter to skip\n".utf8))
    }
    return nil
  }
}
