import Foundation

/// Why a donation command was refused. Each message says what to do instead.
public enum DonationError: Error, Equatable, CustomStringConvertible {
  case alreadyScheduled(id: String, at: String)
  case inThePast
  case tooFarAhead(limit: String)
  case noQuestionnaire
  case questionnaireDeferred(until: String?)
  case beforeNextEligible(String, reasons: [String])
  case notEligible(reasons: [String])
  case noAppointment
  case notFound(String)
  case notScheduled(String, status: String)
  case completedInFuture
  case recordAhead
  case emptyPlace
  case duringPeriod(start: String, from: String)
  case sameDay(id: String, day: String)
  case appointmentAhead(String)
  case breaksAppointment(String, because: String)
  case vitalsNeedDonation(status: String)

  public var description: String {
    switch self {
    case .alreadyScheduled(let id, let at):
      return
        "you already have an appointment on \(at) (\(id.prefix(8))); move it with 'vital donor reschedule --at TIME', or cancel it with 'vital donor cancel'"
    case .duringPeriod(let start, let from):
      return "that day is within 5 days after the period logged from \(start); book on \(from) or later"
    case .inThePast:
      return "that time is in the past; to add a donation you made use 'vital donor add'"
    case .tooFarAhead(let limit):
      return "appointments can be booked at most a year ahead (until \(limit))"
    case .noQuestionnaire:
      return "take the eligibility questionnaire first (valid for 30 days): 'vital donor questionnaire'"
    case .questionnaireDeferred(let until):
      if let until { return "your questionnaire defers you until \(until); book on or after that day" }
      return "your questionnaire says a doctor at the blood service has to decide; ask them before booking"
    case .beforeNextEligible(let day, let reasons):
      return "you may donate this kind again from \(day) (\(reasons.joined(separator: "; "))); choose a later date"
    case .notEligible(let reasons):
      return "you cannot book this donation: \(reasons.joined(separator: "; "))"
    case .noAppointment:
      return "there is no scheduled appointment; book one with 'vital donor book'"
    case .notFound(let id):
      return "no donation with id '\(id)'; see 'vital donor history'"
    case .notScheduled(let id, let status):
      return "donation \(id.prefix(8)) is \(status), not scheduled"
    case .completedInFuture:
      return "a donation cannot be completed in the future; pass --at with a past time"
    case .recordAhead:
      return
        "that time is ahead: book an appointment with 'vital donor book --at TIME --place PLACE'; 'add' takes a donation you made"
    case .sameDay(let id, let day):
      return
        "there is already a donation of this kind on \(day) (\(id.prefix(8))); to correct it use 'vital donor edit \(id.prefix(8))', or add --force if you did donate twice"
    case .appointmentAhead(let day):
      return
        "that appointment is on \(day), still ahead; if you donated early, say when with --at, or move it with 'vital donor reschedule --at TIME'"
    case .breaksAppointment(let id, let reason):
      return
        "that would no longer allow your appointment \(id.prefix(8)): \(reason); move or cancel the appointment first"
    case .vitalsNeedDonation(let status):
      return
        "that donation is \(status); measurements belong to a completed donation ('vital donor complete' takes them too)"
    case .emptyPlace:
      return "give the place of the donation with --place"
    }
  }
}
