import Core
import Foundation
import Replication
import Storage

/// One account's donations and questionnaires.
public struct DonationStore: AccountScoped {

  public let scope: AccountScope

  public init(_ scope: AccountScope) { self.scope = scope }

  /// The donation's columns, in its shape's order (the CSV's).
  static let columns = donations.list(Donation.shape.columns.map(\.name))

  /// Every donation, newest first.
  public func history() throws -> [Donation] {
    try db.query(
      "SELECT \(Self.columns) FROM donation WHERE account_id = ? ORDER BY coalesce(completed_at, scheduled_at) DESC, id",
      account.id, row: Self.donation)
  }

  /// What eligibility needs: donations of the last 400 days (no rule looks further back) and
  /// any appointment, newest first; and whether there was ever a completed donation.
  public func recentHistory() throws -> (donations: [Donation], everDonated: Bool) {
    let since = calendar.date(byAdding: .day, value: -400, to: now)!
    let recent = try db.query(
      """
      SELECT \(Self.columns) FROM donation WHERE account_id = ?
        AND (status = 'scheduled' OR coalesce(completed_at, scheduled_at) >= ?)
      ORDER BY coalesce(completed_at, scheduled_at) DESC, id
      """, account.id, since, row: Self.donation)
    if recent.contains(where: { $0.status == .completed }) { return (recent, true) }
    let ever = try db.scalar(
      Int.self, "SELECT EXISTS (SELECT 1 FROM donation WHERE account_id = ? AND status = 'completed')", account.id)
    return (recent, ever == 1)
  }

  public func scheduled() throws -> Donation? {
    try db.queryFirst(
      "SELECT \(Self.columns) FROM donation WHERE account_id = ? AND status = 'scheduled'", account.id,
      row: Self.donation)
  }

  public func completedCount() throws -> Int {
    try db.scalar(Int.self, "SELECT count(*) FROM donation WHERE account_id = ? AND status = 'completed'", account.id)
      ?? 0
  }

  static let lookup = RecordLookup(kind: "donation", listCommand: "vital donor history", table: "donation")

  /// A donation by id or by an unambiguous prefix of at least 4 characters, as git takes hashes.
  public func find(_ idOrPrefix: String) throws -> Donation {
    let id = try Self.lookup.id(idOrPrefix, account: account.id, in: db)
    guard
      let donation = try db.queryFirst(
        "SELECT \(Self.columns) FROM donation WHERE account_id = ? AND id = ?", account.id, id, row: Self.donation)
    else { throw RecordLookup.Failure.notFound(kind: "donation", id: idOrPrefix, listCommand: "vital donor history") }
    return donation
  }

  // MARK: Appointments

  /// Books an appointment after every check: the time, the one-at-a-time rule, a recent
  /// questionnaire that allows it, and the interval and cap rules for `kind`.
  public func book(at: Date, place: String, kind: DonationKind, profile: Profile, periodStarts: [LocalDate]) throws
    -> Donation
  {
    let place = place.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !place.isEmpty else { throw DonationError.emptyPlace }
    if let existing = try scheduled() {
      throw DonationError.alreadyScheduled(
        id: existing.id, at: existing.scheduledAt.map { LocalDate($0, in: calendar).description } ?? "?")
    }
    let questionnaire = try latestQuestionnaire()
    guard let questionnaire, calendar.dateComponents([.day], from: questionnaire.takenAt, to: now).day! <= 30 else {
      throw DonationError.noQuestionnaire
    }
    try checkAppointment(
      at: at, kind: kind, profile: profile, periodStarts: periodStarts, questionnaire: questionnaire)
    let donation = Donation(kind: kind, status: .scheduled, scheduledAt: at, completedAt: nil, place: place)
    try insert(donation)
    return donation
  }

  /// What every appointment time must pass, when booked and when moved: ahead but within a
  /// year, allowed by the questionnaire, after the intervals since earlier donations (not
  /// counting `excluding`, the appointment being moved), and not just after a period began
  /// (`periodStarts`, oldest first).
  func checkAppointment(
    at: Date, kind: DonationKind, profile: Profile, periodStarts: [LocalDate], questionnaire: Questionnaire.Result?,
    excluding: String? = nil, timing: Bool = true
  ) throws {
    if timing {
      guard at > now else { throw DonationError.inThePast }
      let limit = calendar.date(byAdding: .year, value: 1, to: now)!
      guard at <= limit else { throw DonationError.tooFarAhead(limit: LocalDate(limit, in: calendar).description) }
    }
    if let questionnaire, !questionnaire.eligible {
      guard let until = questionnaire.deferredUntil, at >= until else {
        throw DonationError.questionnaireDeferred(
          until: questionnaire.deferredUntil.map { LocalDate($0, in: calendar).description })
      }
    }
    let history = try recentHistory()
    let recent = history.donations.filter { $0.id != excluding }
    let ever = history.everDonated
    let verdict = Eligibility.evaluate(
      history: recent, everDonated: ever, profile: profile, kind: kind, questionnaire: nil, now: now, calendar: calendar
    )
    guard let next = verdict.nextEligible else { throw DonationError.notEligible(reasons: verdict.reasons) }
    guard LocalDate(at, in: calendar) >= next else {
      throw DonationError.beforeNextEligible(next.description, reasons: verdict.reasons)
    }
    if let start = Self.periodBlocking(LocalDate(at, in: calendar), periodStarts) {
      throw DonationError.duringPeriod(
        start: start.description, from: start.adding(days: Self.daysAfterPeriod + 1).description)
    }
  }

  /// The donor app's rule: no donation within 5 days after a period started.
  static let daysAfterPeriod = 5

  /// The start of the period whose first days hold `day`, if one does.
  static func periodBlocking(_ day: LocalDate, _ periodStarts: [LocalDate]) -> LocalDate? {
    periodStarts.last { (0...daysAfterPeriod).contains($0.days(to: day)) }
  }

  public func cancel(_ idOrPrefix: String?) throws -> Donation {
    var donation = try target(idOrPrefix)
    donation.status = .cancelled
    try update(donation)
    return donation
  }

  /// Marks a scheduled appointment as donated, at `at` or else at its own time (now, if that
  /// is still ahead).
  public func complete(_ idOrPrefix: String?, at: Date?, vitals: DonationVitals = .init()) throws -> Donation {
    var donation = try target(idOrPrefix)
    if at == nil, let scheduled = donation.scheduledAt, scheduled > now {
      throw DonationError.appointmentAhead(LocalDate(scheduled, in: calendar).description)
    }
    let when = at ?? donation.scheduledAt ?? now
    guard when <= now else { throw DonationError.completedInFuture }
    try checkNoOther(on: when, kind: donation.kind, excluding: donation.id)
    donation.status = .completed
    donation.completedAt = when
    donation.vitals = try vitals.validated().over(donation.vitals)
    try update(donation)
    return donation
  }

  /// Adds a donation made in the past (before Vital, or elsewhere).
  public func record(
    at: Date, place: String, kind: DonationKind, notes: String?, vitals: DonationVitals = .init(), force: Bool = false
  ) throws -> Donation {
    let place = place.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !place.isEmpty else { throw DonationError.emptyPlace }
    guard at <= now else { throw DonationError.recordAhead }
    let vitals = try vitals.validated()
    if !force { try checkNoOther(on: at, kind: kind) }
    let donation = Donation(
      kind: kind, status: .completed, scheduledAt: nil, completedAt: at, place: place, notes: notes, vitals: vitals)
    try insert(donation)
    return donation
  }

  func target(_ idOrPrefix: String?) throws -> Donation {
    guard let idOrPrefix else {
      guard let scheduled = try scheduled() else { throw DonationError.noAppointment }
      return scheduled
    }
    let donation = try find(idOrPrefix)
    guard donation.status == .scheduled else {
      throw DonationError.notScheduled(donation.id, status: donation.status.rawValue)
    }
    return donation
  }

  func insert(_ d: Donation) throws {
    try replica.write(.donation, id: d.id, Self.fields(d))
  }

  /// Writes only the fields that differ from what is stored, so concurrent edits of other
  /// fields on other devices survive the merge.
  func update(_ d: Donation, from old: Donation? = nil) throws {
    let before = Self.fields(try old ?? find(d.id))
    let changed = Self.fields(d).filter { before[$0.key] != $0.value }
    if !changed.isEmpty { try replica.write(.donation, id: d.id, changed) }
  }

  /// The columns that sync, in the dataset's order.
  package static let synced = Donation.shape.selection(Dataset.donation.fields)

  package static func fields(_ d: Donation) -> [String: DatabaseValue] {
    Donation.shape.fields(d, synced)
  }

  /// A donation's synced fields in the order of `Dataset.donation.fields` (the table's), as bulk
  /// inserts take them.
  static func values(_ d: Donation) -> [DatabaseValue] {
    Donation.shape.values(d, synced)
  }

  static func donation(_ row: Row) throws -> Donation {
    try Donation.shape.record(row)
  }

  // MARK: Questionnaires

  public func save(_ result: Questionnaire.Result) throws {
    try replica.write(
      .questionnaire, id: result.id, Questionnaire.Result.shape.fields(result, Questionnaire.Result.synced))
  }

  public func latestQuestionnaire() throws -> Questionnaire.Result? {
    try db.queryFirst(
      """
      SELECT \(Self.questionnaires.list()) FROM questionnaire
      WHERE account_id = ? ORDER BY taken_at DESC LIMIT 1
      """, account.id, row: Self.questionnaire)
  }

  static func questionnaire(_ row: Row) throws -> Questionnaire.Result {
    try Questionnaire.Result.shape.record(row)
  }
}
