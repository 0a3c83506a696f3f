import ArgumentParser
import Core
import Records

/// What `meds add` and `meds edit` both set beyond times, days and dose: tapers, zones, limits
/// for doses taken as needed, the gap after a late dose, the expiry date. On `edit`, '' clears
/// an option.
struct MedsPlanOptions: ParsableArguments {
  @Option(help: "A taper: DOSE:LENGTH steps, e.g. '20 mg:7d,10 mg:7d,5 mg:5d' (days or weeks).") var steps: String?
  @Option(help: "The first day of the schedule or taper (default: today); doses since a past day can be recorded.")
  var start: LocalDate?
  @Flag(name: .customLong("then-keep"), help: "After the last step keep its dose.") var thenKeep = false
  @Flag(name: .customLong("then-stop"), help: "After the last step the schedule ends (the default).") var thenStop =
    false
  @Option(help: "local (the times follow you) or an IANA zone the times are pinned to, e.g. Europe/Berlin.")
  var zone: String?
  @Option(help: "After a late dose, the least time to the next one, e.g. 6h: the day's later doses move.")
  var minGap: String?
  @Option(help: "The pack's expiry date, YYYY-MM-DD: reminded 14 days before.") var expires: String?
  @Option(help: "As needed: the least time between two doses, e.g. 4h.") var minInterval: String?
  @Option(help: "As needed: the most doses in any 24 hours.") var maxPerDay: String?

  func validate() throws {
    if thenKeep && thenStop { throw ValidationError("--then-keep and --then-stop exclude each other") }
    if let expires, !expires.isEmpty, LocalDate(expires) == nil {
      throw ValidationError("--expires takes a date, YYYY-MM-DD ('' clears it)")
    }
    if let maxPerDay, !maxPerDay.isEmpty, Int(maxPerDay) == nil {
      throw ValidationError("--max-per-day takes a whole number ('' clears it)")
    }
  }

  var isEmpty: Bool {
    steps == nil && start == nil && !thenKeep && !thenStop && zone == nil && minGap == nil && expires == nil
      && minInterval == nil && maxPerDay == nil
  }

  /// These options laid over `changes`.
  func apply(to changes: inout MedicationStore.Changes) {
    func cleared(_ text: String?) -> String?? { text.map { $0.isEmpty ? nil : $0 } }
    changes.steps = cleared(steps)
    changes.stepsStart = start
    changes.thenKeep = thenKeep ? true : thenStop ? false : nil
    changes.zone = zone
    changes.minGap = cleared(minGap)
    changes.expires = cleared(expires).map { text in text.flatMap { LocalDate($0) } }
    changes.minInterval = cleared(minInterval)
    changes.maxPerDay = cleared(maxPerDay).map { text in text.flatMap { Int($0, radix: 10) } }
  }
}
