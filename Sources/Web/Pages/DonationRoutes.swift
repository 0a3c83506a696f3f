import Core
import Foundation
import Hummingbird
import Records
import Views

/// `/donations` and its forms. Each form calls what `vital donor add`, `book`, `edit` and
/// `delete` call, as one journaled change under that command's name; a refusal comes back as
/// the form with the store's own words next to the field (422), nothing written.
struct DonationRoutes {
  let store: WebStore

  func add(to router: Router<WebContext>) {
    router.page("/donations") { _, context in try await list(context) }
    router.page("/donations/new") { _, context in
      DonationPage(formToken: context.formToken).new(add: .init(), book: .init(), errors: [:], failed: nil)
        .response(current: "/donations")
    }
    router.post("/donations") { _, context in try await record(context) }
    router.post("/donations/book") { _, context in try await book(context) }
    router.page("/donations/:id") { _, context in try await show(context, id: try context.id()) }
    router.post("/donations/:id") { _, context in try await edit(context, id: try context.id()) }
    RecordDeletes(
      store: store, path: "/donations", noun: "donation", command: "donor delete", back: "/donations",
      describe: { scope, id in
        let d = try DonationStore(scope).find(id)
        let human = HumanText(now: scope.now, calendar: scope.calendar)
        return (d.id, "\(d.kind.label) \(d.status.rawValue), \(d.date.map(human.time) ?? "-"), \(d.place)")
      },
      delete: { scope, id in _ = try DonationStore(scope).delete(id) }
    ).add(to: router, current: "/donations")
  }

  func list(_ context: WebContext) async throws -> Response {
    try await store.read { scope in
      let donations = DonationStore(scope)
      let profile = try ProfileStore(scope).load()
      let periodStarts = try PeriodStore(scope).startDays()
      let history = try donations.history()
      let status = try donations.status(profile: profile, periodStarts: periodStarts)
      let human = HumanText(now: scope.now, calendar: scope.calendar)
      let today = LocalDate(scope.now, in: scope.calendar)
      var data = ReportData(from: today, to: today, today: today, calendar: scope.calendar)
      data.profile = profile
      data.donations = history.filter { $0.status == .completed && $0.completedAt != nil }
        .sorted { $0.completedAt! < $1.completedAt! }
      data.nextEligible = status.nextEligible
      data.minimumHaemoglobin = DonationRules.forRegion(profile.region).minimumHaemoglobin(sex: profile.sex)
      return DonationsPage(
        history: history, explanation: status.eligibility.explained(kind: status.kind, human),
        chart: ReportChart.donations(data), human: human
      ).page.response(current: "/donations")
    }
  }

  func show(_ context: WebContext, id: String, fields: DonationFields? = nil, errors: [String: String] = [:])
    async throws -> Response
  {
    let token = context.formToken
    var page = try await store.read { scope in
      let d = try DonationStore(scope).find(id)
      return DonationPage(formToken: token).show(
        d, sheet: d.sheet(HumanText(now: scope.now, calendar: scope.calendar)),
        fields: fields ?? DonationFields(d, calendar: scope.calendar), errors: errors)
    }
    if !errors.isEmpty { page.refused(errors) }
    return page.response(current: "/donations")
  }

  func record(_ context: WebContext) async throws -> Response {
    let fields = DonationFields(context.form)
    do {
      let at = try await instant(fields.at)
      let kind = try Self.kind(fields.kind)
      let vitals = try fields.vitals.parsed()
      _ = try await store.write("donor add") { scope in
        try DonationStore(scope).record(
          at: at, place: fields.place, kind: kind, notes: fields.notes.isEmpty ? nil : fields.notes, vitals: vitals,
          force: fields.force)
      }
    } catch {
      guard let refusal = Refusal(error) else { throw error }
      return new(context, add: fields, book: .init(), refusal, failed: "add")
    }
    return Page.seeOther("/donations")
  }

  func book(_ context: WebContext) async throws -> Response {
    let fields = DonationFields(context.form)
    do {
      let at = try await instant(fields.at)
      let kind = try Self.kind(fields.kind)
      _ = try await store.write("donor book") { scope in
        try DonationStore(scope).book(
          at: at, place: fields.place, kind: kind, profile: try ProfileStore(scope).load(),
          periodStarts: try PeriodStore(scope).startDays())
      }
    } catch {
      guard let refusal = Refusal(error) else { throw error }
      return new(context, add: .init(), book: fields, refusal, failed: "book")
    }
    return Page.seeOther("/donations")
  }

  func new(_ context: WebContext, add: DonationFields, book: DonationFields, _ refusal: Refusal, failed: String)
    -> Response
  {
    var page = DonationPage(formToken: context.formToken).new(
      add: add, book: book, errors: refusal.errors, failed: failed)
    page.refused(refusal.errors)
    return page.response(current: "/donations")
  }

  /// Changes what the form changed, nothing else: a field sent as it was stored is left alone
  /// (a time shown to the minute does not move a donation by its seconds).
  func edit(_ context: WebContext, id: String) async throws -> Response {
    let fields = DonationFields(context.form)
    do {
      let (old, calendar) = try await store.read { scope in (try DonationStore(scope).find(id), scope.calendar) }
      let before = DonationFields(old, calendar: calendar)
      var changes = DonationStore.Changes()
      if fields.at != before.at { changes.at = try await instant(fields.at) }
      if fields.kind != before.kind { changes.kind = try Self.kind(fields.kind) }
      if fields.place != before.place { changes.place = fields.place }
      if context.form["notes"] != nil, fields.notes != before.notes {
        changes.notes = .some(fields.notes.isEmpty ? nil : fields.notes)
      }
      if old.status == .completed {
        var entry = DonationVitals.Entry()
        if fields.hb != before.hb { entry.hb = fields.hb }
        if fields.ferritin != before.ferritin { entry.ferritin = fields.ferritin }
        if fields.bp != before.bp { entry.bp = fields.bp }
        if fields.pulse != before.pulse { entry.pulse = fields.pulse }
        changes.vitals = try entry.parsed()
        changes.clearVitals = entry.cleared
      }
      if !changes.isEmpty {
        let force = fields.force
        _ = try await store.write("donor edit") { [changes] scope in
          try DonationStore(scope).edit(
            id, changes, profile: try ProfileStore(scope).load(), periodStarts: try PeriodStore(scope).startDays(),
            force: force)
        }
      }
    } catch {
      guard let refusal = Refusal(error) else { throw error }
      return try await show(context, id: id, fields: fields, errors: refusal.errors)
    }
    return Page.seeOther("/donations/\(id)")
  }

  func instant(_ text: String) async throws -> Date {
    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw Refusal(field: "at", "Say when: a date and a time.")
    }
    guard let at = try await store.instant(text) else {
      throw Refusal(field: "at", "Write the time as 2026-11-26T09:30.")
    }
    return at
  }

  static func kind(_ text: String) throws -> DonationKind {
    guard let kind = DonationKind(rawValue: text) else {
      throw Refusal(field: "kind", "Choose whole blood, plasma, platelets or double red cells.")
    }
    return kind
  }
}
