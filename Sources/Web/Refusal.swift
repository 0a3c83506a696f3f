import CLICore
import Records

/// A submission a check refused, as its form shows it: the check's own words (the CLI's,
/// which name no health value), and the field they are about, or nil for the form as a whole.
struct Refusal: Error {
  let field: String?
  let message: String

  init(field: String?, _ message: String) {
    self.field = field
    self.message = message
  }

  /// The refusals a form can meet: the stores' and the readers' errors. Anything else is not a
  /// refusal but a failure (`WebGuard.refusal`).
  init?(_ error: any Error) {
    switch error {
    case let refusal as Refusal: self = refusal
    case let error as DonationError: self.init(field: Self.field(error), error.description)
    case let error as VitalsError: self.init(field: Self.field(error), error.description)
    case let error as DonationVitals.EntryError: self.init(field: error.field, error.description)
    case let error as MedicationError: self.init(field: Self.field(error), error.description)
    case let error as CycleError: self.init(field: Self.field(error), error.description)
    case let error as AreaError: self.init(field: error == .emptyLabel ? "label" : nil, error.description)
    case let error as GoalStore.Failure: self.init(field: error == .badTarget ? "target" : nil, error.description)
    case let error as CLIError: self.init(field: "at", error.description)
    default: return nil
    }
  }

  /// `[field: message]`, `""` for the form as a whole.
  var errors: [String: String] { [field ?? "": message] }

  static func field(_ error: DonationError) -> String? {
    switch error {
    case .emptyPlace: "place"
    case .vitalsNeedDonation: "hb"
    case .alreadyScheduled, .inThePast, .tooFarAhead, .beforeNextEligible, .completedInFuture, .recordAhead,
      .duringPeriod, .sameDay, .appointmentAhead, .breaksAppointment:
      "at"
    case .noQuestionnaire, .questionnaireDeferred, .notEligible, .noAppointment, .notFound, .notScheduled: nil
    }
  }

  static func field(_ error: MedicationError) -> String? {
    switch error {
    case .emptyName, .duplicateName: "name"
    case .noTimes, .badTime, .asNeededHasNoSchedule: "times"
    case .badDay: "days"
    case .badStock: "stock"
    case .badSteps, .noSteps: "steps"
    case .stepsAndDose: "dose"
    case .badStart: "start"
    case .limitsNeedAsNeeded: "min-interval"
    case .badMaxPerDay: "max-per-day"
    case .badSpan(let option): option.hasPrefix("--") ? String(option.dropFirst(2)) : nil
    case .badZone: "zone"
    default: nil
    }
  }

  static func field(_ error: CycleError) -> String? {
    switch error {
    case .badTemperature, .noTemperature: "temperature"
    case .badTime: "temperature-time"
    case .longTag: nil
    default: nil
    }
  }

  static func field(_ error: VitalsError) -> String? {
    switch error {
    case .outOfRange(let what, _):
      ["haemoglobin": "hb", "ferritin": "ferritin", "blood pressure": "bp", "pulse": "pulse"][what]
    case .halfPressure, .pressureFormat: "bp"
    }
  }
}

extension Page {
  /// The page as a refused action comes back: 422, and `alert` above it (nil: as it is).
  mutating func refused(alert: String?) {
    guard let alert else { return }
    self.alert = alert
    status = .unprocessableContent
  }

  /// The page as a refused form comes back: 422, and an alert above that says nothing was
  /// saved and why (the field's own message stands next to it).
  mutating func refused(_ errors: [String: String]) {
    status = .unprocessableContent
    if let whole = errors[""] {
      alert = "Nothing was saved: \(whole)"
    } else {
      alert = "Nothing was saved: correct the field marked below."
    }
  }
}
