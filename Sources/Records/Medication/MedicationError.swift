/// Why a medication command was refused. Each message says what to do instead.
public enum MedicationError: Error, Equatable, CustomStringConvertible {
  case emptyName
  case duplicateName(String)
  case notFound(String)
  case noTimes
  case badTime(String)
  case badDay(String)
  case badStock
  case noDoseNear(String)
  case alreadyRecorded(status: String, scheduled: String)
  case noSuchDose(String, slot: String, times: [TimeOfDay])
  case badDoseKey(String)
  case noDose(String)
  case badDoseStatus
  case tooFarFromDose(String)
  case inTheFuture
  case badDays
  case badSteps(String)
  case stepsAndDose
  case noSteps
  case badStart
  case asNeededHasNoSchedule(String)
  case limitsNeedAsNeeded
  case badMaxPerDay
  case badSpan(String)
  case badZone(String)
  case tooSoon(String, interval: String, next: String)
  case tooMany(String, max: Int, next: String)
  case notLate(String)
  case pauseInThePast
  case notPaused(String)
  case nothingDue(String)
  case nothingToUndo(String)

  public var description: String {
    switch self {
    case .emptyName: return "give the medication a name"
    case .duplicateName(let name):
      return "a medication named '\(name)' exists already; pick another name or remove it first"
    case .notFound(let key): return "no medication '\(key.prefix(60))'; see 'vital meds list'"
    case .noTimes: return "give at least one time with --at HH:MM, or --as-needed for a medication without a schedule"
    case .badTime(let text): return "'\(text.prefix(20))' is not a time of day; use HH:MM, e.g. 08:00"
    case .badDay(let text): return "'\(text.prefix(20))' is not a weekday; use mon,tue,wed,thu,fri,sat,sun"
    case .badStock: return "stock and --refill-at must be whole numbers from 0 to 100000"
    case .noDoseNear(let name):
      return "no scheduled dose of \(name) within 12 hours of that time; pass --at with the time you took it"
    case .alreadyRecorded(let status, let scheduled):
      return "the dose of \(scheduled) is already recorded as \(status)"
    case .noSuchDose(let name, let slot, let times):
      return
        "\(name) has no dose at \(slot) that day within 12 hours of that time; its times are \(times.map(\.description).joined(separator: ", "))"
    case .badDoseKey(let key):
      return "'\(key.prefix(60))' does not name a dose; use NAME@YYYY-MM-DDTHH:MM, its scheduled local time"
    case .noDose(let key):
      return "no recorded dose '\(key.prefix(60))'; 'vital meds history' shows them (missed doses have nothing to edit)"
    case .badDoseStatus: return "--status must be taken or skipped"
    case .tooFarFromDose(let scheduled):
      return
        "that is more than 12 hours from the dose of \(scheduled), so it would be another dose; delete this one and take that one instead"
    case .inTheFuture: return "that time is in the future; record a dose when it happens"
    case .badDays: return "--days must be between 1 and 3660"
    case .badSteps(let text):
      return
        "'\(text.prefix(40))' is not a taper step; write DOSE:LENGTH with the length in days or weeks, e.g. --steps '20 mg:7d,10 mg:2w'"
    case .stepsAndDose: return "--steps sets the dose of each day; leave out --dose"
    case .noSteps:
      return
        "--then-keep and --then-stop belong to a taper, and so does --start on edit; add --steps (a schedule's first day is set when it is added)"
    case .badStart:
      return "--start is the schedule's first day, within a year of today (a medication taken as needed has none)"
    case .asNeededHasNoSchedule(let name):
      return "\(name) is taken as needed and has no schedule; record a dose with 'vital meds take \(name)'"
    case .limitsNeedAsNeeded:
      return "--min-interval and --max-per-day limit doses taken as needed; add --as-needed"
    case .badMaxPerDay: return "--max-per-day must be a whole number from 1 to 100"
    case .badSpan(let option):
      return
        "\(option) takes a length of time such as 15m, 4h or 1h30m (--min-interval up to 7d, --min-gap up to 24h, --for from 1m to 12h)"
    case .badZone(let text):
      return "'\(text)' is not a time zone; use local or an IANA name such as Europe/Berlin"
    case .tooSoon(let name, let interval, let next):
      return
        "\(name) needs \(interval) between doses; the next dose is allowed \(next) (--force records it anyway, marked as over the limit)"
    case .tooMany(let name, let max, let next):
      return
        "\(name) is limited to \(max) doses in 24 hours; the next dose is allowed \(next) (--force records it anyway, marked as over the limit)"
    case .notLate(let name):
      return "that dose of \(name) is not late, so there is nothing to shift; leave out --shift"
    case .pauseInThePast: return "--until must be a day after today"
    case .notPaused(let name): return "\(name) is not paused"
    case .nothingDue(let name):
      return "no dose of \(name) is due now; snooze works on a dose whose time has come and that is still open"
    case .nothingToUndo(let name): return "no take or skip of \(name) is recorded"
    }
  }
}
