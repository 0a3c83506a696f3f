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

  public var description: String {
    switch self {
    case .emptyName: return "give the medication a name"
    case .duplicateName(let name):
      return "a medication named '\(name)' exists already; pick another name or remove it first"
    case .notFound(let key): return "no medication '\(key.prefix(60))'; see 'vital meds list'"
    case .noTimes: return "give at least one time with --at HH:MM"
    case .badTime(let text): return "'\(text.prefix(20))' is not a time of day; use HH:MM, e.g. 08:00"
    case .badDay(let text): return "'\(text.prefix(20))' is not a weekday; use mon,tue,wed,thu,fri,sat,sun"
    case .badStock: return "stock and --refill-at must be whole numbers from 0 to 100000"
    case .noDoseNear(let name):
      return "no scheduled dose of \(name) within 12 hours of that time; pass --at with the time you took it"
    case .alreadyRecorded(let status, let scheduled):
      return "the dose scheduled for \(scheduled) is already recorded as \(status)"
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
        "that is more than 12 hours from the dose scheduled for \(scheduled), so it would be another dose; delete this one and take that one instead"
    case .inTheFuture: return "that time is in the future; record a dose when it happens"
    case .badDays: return "--days must be between 1 and 3660"
    }
  }
}
