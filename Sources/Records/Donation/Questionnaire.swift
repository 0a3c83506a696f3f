import Core
import Foundation

/// The eligibility questionnaire, as data. The questions follow the donor app's 18-question
/// health test (Russian texts kept as it wrote them); the English is ours. What a "yes" means
/// follows the blood services' deferral rules.
public enum Questionnaire {
  public enum Deferral: Equatable, Sendable {
    case permanent
    case days(Int)
    /// Differs by blood service.
    case byRegion([Region: Int])

    func days(in region: Region) -> Int? {
      switch self {
      case .permanent: return nil
      case .days(let days): return days
      case .byRegion(let table): return table[region]
      }
    }
  }

  public struct Question: Equatable, Sendable {
    public let id: String
    public let section: String
    public let text: String
    public let russian: String
    public let deferral: Deferral
    public let womenOnly: Bool

    public func text(language: Language) -> String { language == .ru ? russian : text }
  }

  public enum Language: String, CaseIterable, Sendable { case en, ru }

  static let health = "General health"
  static let recent = "In the last 6 to 12 months"
  static let ever = "Have you ever"
  static let women = "For women"

  public static let questions: [Question] = [
    q(
      "chronic-illness", health, "Do you have a chronic illness?", "Есть ли у вас хронические заболевания?", .permanent),
    q(
      "strong-medication", health, "Are you taking strong prescription medicines?",
      "Принимаете тяжелые лекарственные препараты?", .permanent),
    q(
      "tooth-extraction", health, "Have you had a tooth pulled in the last 10 days?",
      "Удаляли ли Вы зуб в последние 10 дней?", .days(10)),
    q(
      "vaccination", health, "Have you been vaccinated in the last 30 days?",
      "Делали ли Вы вакцину в последние 30 дней?", .days(30)),
    q(
      "recent-donation", health, "Have you given blood in the last 60 days?",
      "Сдавали ли Вы кровь за последние 60 дней?", .days(60)),
    q("injections", recent, "Have you had medicines injected?", "Производилась инъекция лекарств?", .days(120)),
    q("surgery", recent, "Have you had surgery?", "Были ли хирургические вмешательства?", .days(120)),
    q(
      "transfusion", recent, "Have you received a blood transfusion?", "Было ли переливание крови?",
      .byRegion([.de: 120, .us: 90])),
    q(
      "tattoo-piercing", recent, "Have you had a piercing, acupuncture or a tattoo?",
      "Делали ли Вы пирсинг/акупунктуру/тату?", .byRegion([.de: 120, .us: 90, .uk: 120])),
    q(
      "infection-contact", recent, "Have you been in close contact with someone with HIV, hepatitis or syphilis?",
      "Был ли контакт с больным ВИЧ/гепатитом/сифилисом?", .days(120)),
    q(
      "fainting-weight-loss", ever, "Have you had unexplained weight loss or fainting spells?",
      "Неконтролируемая потеря веса/обмороки?", .permanent),
    q(
      "heart-disease", ever, "Have you had a disease of the heart or blood vessels?", "Заболевания сердца или сосудов?",
      .permanent),
    q(
      "hepatitis-std", ever, "Have you had hepatitis or a sexually transmitted disease?",
      "Гепатит, венерические заболевания?", .permanent),
    q(
      "disability-allergy", ever, "Do you have a disability status or a severe allergy?",
      "Группа инвалидности сильная аллергия?", .permanent),
    q(
      "nervous-system", ever, "Have you had a disease of the nervous system or seizures?",
      "Заболевания нервной системы/cудороги?", .permanent),
    q(
      "previous-deferral", ever, "Has a doctor ever deferred you from donating?",
      "Отводы от кровосдачи по решению врачей?", .permanent),
    q(
      "travel-vaccination", ever, "Have you travelled in the last 3 years to a country that requires vaccination?",
      "Выезд в страны, где требуется вакцина, за последние 3 года?", .days(183)),
    q(
      "pregnancy", women, "Are you pregnant, or were you in the last 6 weeks?",
      "Беременны ли Вы сейчас или были беременны за последние 6 недель?", .days(183), womenOnly: true),
  ]

  private static func q(
    _ id: String, _ section: String, _ text: String, _ russian: String, _ deferral: Deferral, womenOnly: Bool = false
  ) -> Question {
    Question(id: id, section: section, text: text, russian: russian, deferral: deferral, womenOnly: womenOnly)
  }

  /// The questions that apply to someone of `sex`; unknown sex is asked everything.
  public static func applicable(sex: Sex?) -> [Question] {
    questions.filter { !$0.womenOnly || sex != .male }
  }

  public struct Result: Equatable, Sendable {
    public var id: String
    public var takenAt: Date
    public var eligible: Bool
    /// When a temporary deferral ends; nil when eligible or deferred for good.
    public var deferredUntil: Date?
    public var reasons: [String]
    public var answers: [String: Bool]

    public var permanentlyDeferred: Bool { !eligible && deferredUntil == nil }
  }

  public enum AnswerError: Error, Equatable, CustomStringConvertible {
    case missing([String])
    case unknown([String])

    public var description: String {
      switch self {
      case .missing(let ids): return "answer every question; missing: \(ids.joined(separator: ", "))"
      case .unknown(let ids): return "no such question: \(ids.joined(separator: ", ")); see 'vital donor questions'"
      }
    }
  }

  /// Scores a full set of answers. A "yes" defers: for good, or for the question's number of
  /// days counted from now (the event may have been today).
  public static func evaluate(
    _ answers: [String: Bool], sex: Sex?, region: Region, now: Date, calendar: Calendar,
    id: String = UUID().uuidString.lowercased()
  ) throws -> Result {
    let asked = applicable(sex: sex)
    let known = Set(questions.map(\.id))
    let unknown = answers.keys.filter { !known.contains($0) }.sorted()
    if !unknown.isEmpty { throw AnswerError.unknown(unknown) }
    let missing = asked.map(\.id).filter { answers[$0] == nil }
    if !missing.isEmpty { throw AnswerError.missing(missing) }

    var permanent = false
    var until: Date?
    var reasons: [String] = []
    for question in asked where answers[question.id] == true {
      if let days = question.deferral.days(in: region) {
        let end = calendar.date(byAdding: .day, value: days, to: calendar.startOfDay(for: now))!
        until = max(until ?? end, end)
        reasons.append("\(question.id): deferred for \(HumanText.count(days, "day"))")
      } else {
        permanent = true
        reasons.append("\(question.id): a doctor at the blood service has to decide")
      }
    }
    let eligible = reasons.isEmpty
    return Result(
      id: id, takenAt: now, eligible: eligible, deferredUntil: permanent ? nil : until, reasons: reasons,
      answers: answers.filter { key, _ in asked.contains { $0.id == key } })
  }
}
