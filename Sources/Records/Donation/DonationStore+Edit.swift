import Core
import Foundation
import Replication
import Storage

/// Correcting a donation: any field, with the rules `record` and `book` apply checked again.
extension DonationStore {
  /// The fields an edit may change; nil leaves a field as it is, `notes: .some(nil)` clears it.
  public struct Changes: Sendable {
    /// When it happened (a completed donation) or is to happen (an appointment).
    public var at: Date?
    public var kind: DonationKind?
    public var place: String?
    public var notes: String??
    /// Figures given replace those stored; the others stay.
    public var vitals: DonationVitals
    /// Figures to remove: `hb`, `ferritin`, `bp`, `pulse`.
    public var clearVitals: Set<String>

    public init(
      at: Date? = nil, kind: DonationKind? = nil, place: String? = nil, notes: String?? = nil,
      vitals: DonationVitals = .init(), clearVitals: Set<String> = []
    ) {
      self.at = at
      self.kind = kind
      self.place = place
      self.notes = notes
      self.vitals = vitals
      self.clearVitals = clearVitals
    }

    public var isEmpty: Bool {
      at == nil && kind == nil && place == nil && notes == nil && vitals.isEmpty && clearVitals.isEmpty
    }
  }

  /// Changes the given fields of one donation and writes only those that differ. A completed
  /// donation cannot move into the future or onto a day with another of its kind (unless
  /// `force`), and must leave the scheduled appointment allowed; a scheduled appointment must
  /// pass what booking checks. A refusal writes nothing.
  public func edit(
    _ idOrPrefix: String, _ changes: Changes, profile: Profile, periodStarts: [LocalDate], force: Bool = false
  ) throws -> Donation {
    let old = try find(idOrPrefix)
    var donation = old
    if let kind = changes.kind { donation.kind = kind }
    if let place = changes.place {
      donation.place = place.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !donation.place.isEmpty else { throw DonationError.emptyPlace }
    }
    if let notes = changes.notes { donation.notes = notes.flatMap { $0.isEmpty ? nil : $0 } }
    if !changes.vitals.isEmpty || !changes.clearVitals.isEmpty {
      guard donation.status == .completed else {
        throw DonationError.vitalsNeedDonation(status: donation.status.rawValue)
      }
      var vitals = changes.vitals.over(donation.vitals)
      if changes.clearVitals.contains("hb") { vitals.haemoglobin = nil }
      if changes.clearVitals.contains("ferritin") { vitals.ferritin = nil }
      if changes.clearVitals.contains("bp") { (vitals.systolic, vitals.diastolic) = (nil, nil) }
      if changes.clearVitals.contains("pulse") { vitals.pulse = nil }
      donation.vitals = try vitals.validated()
    }
    if let at = changes.at {
      switch donation.status {
      case .completed: donation.completedAt = at
      case .scheduled, .cancelled: donation.scheduledAt = at
      }
    }
    let moved = donation.kind != old.kind || donation.date != old.date
    guard moved else {
      try update(donation, from: old)
      return donation
    }
    try db.transaction { _ in
      switch donation.status {
      case .completed:
        guard let at = donation.completedAt, at <= now else { throw DonationError.completedInFuture }
        if !force { try checkNoOther(on: at, kind: donation.kind, excluding: donation.id) }
        try update(donation, from: old)
        // The appointment booked after the old date must still be allowed after the new one.
        if let appointment = try scheduled(), let at = appointment.scheduledAt {
          do {
            try checkAppointment(
              at: at, kind: appointment.kind, profile: profile, periodStarts: periodStarts, questionnaire: nil,
              excluding: appointment.id, timing: false)
          } catch let error as DonationError {
            throw DonationError.breaksAppointment(appointment.id, because: error.description)
          }
        }
      case .scheduled:
        guard let at = donation.scheduledAt else { throw DonationError.inThePast }
        try checkAppointment(
          at: at, kind: donation.kind, profile: profile, periodStarts: periodStarts,
          questionnaire: try latestQuestionnaire(), excluding: donation.id)
        try update(donation, from: old)
      case .cancelled:
        try update(donation, from: old)
      }
    }
    return donation
  }

  /// Moves the scheduled appointment (or the one named) to `at`, and to `place` when given,
  /// checked as booking checks it.
  public func reschedule(
    _ idOrPrefix: String?, at: Date, place: String?, profile: Profile, periodStarts: [LocalDate]
  ) throws -> Donation {
    let appointment = try target(idOrPrefix)
    return try edit(appointment.id, Changes(at: at, place: place), profile: profile, periodStarts: periodStarts)
  }

  /// Deletes one donation for good (on every device once synced; `vital undo` brings it back).
  public func delete(_ idOrPrefix: String) throws -> Donation {
    let donation = try find(idOrPrefix)
    try replica.delete(.donation, id: donation.id)
    return donation
  }

  /// Refuses a second completed donation of `kind` on the local day of `at`: a typo twice
  /// entered, not two donations, and it would move eligibility by months.
  func checkNoOther(on at: Date, kind: DonationKind, excluding: String? = nil) throws {
    let day = LocalDate(at, in: calendar)
    let from = calendar.startOfDay(for: at)
    let to = calendar.date(byAdding: .day, value: 1, to: from)!
    let clash = try db.scalar(
      String.self,
      """
      SELECT id FROM donation WHERE account_id = ? AND status = 'completed' AND kind = ? AND id IS NOT ?
        AND completed_at >= ? AND completed_at < ? LIMIT 1
      """, account.id, kind.rawValue, excluding, from, to)
    if let clash { throw DonationError.sameDay(id: clash, day: day.description) }
  }
}
