import Core
import Foundation
import Hummingbird
import Records
import Views

/// `/` and the dose buttons on it. A button calls what `vital meds take` and `vital meds skip`
/// call, with the same checks and words; a refusal comes back as the page with the reason
/// above it (422), nothing written.
struct TodayRoutes {
  let store: WebStore

  func add(to router: Router<WebContext>) {
    router.page("/") { _, context in try await page(context) }
    router.post("/meds/take") { _, context in
      try await dose(context, command: "meds take") { meds, medication, slot in
        _ = try meds.take(medication, at: nil, slot: slot)
      }
    }
    router.post("/meds/skip") { _, context in
      try await dose(context, command: "meds skip") { meds, medication, slot in
        _ = try meds.skip(medication, at: nil, slot: slot)
      }
    }
  }

  func page(_ context: WebContext, alert: String? = nil) async throws -> Response {
    let token = context.formToken
    var page = try await store.read { scope in
      let profile = try ProfileStore(scope).load()
      let today = try TodayView.gather(
        db: scope.db, account: scope.account, profile: profile, now: scope.now, calendar: scope.calendar)
      return TodayPage(
        today: today, profile: profile, email: scope.account.email,
        human: HumanText(now: scope.now, calendar: scope.calendar),
        formToken: token
      ).page
    }
    page.refused(alert: alert)
    return page.response(current: "/")
  }

  /// Records one dose from a button's fields (`medication`, its id or name; `dose`, HH:MM) as
  /// one journaled change, then back to `/`.
  func dose(
    _ context: WebContext, command: String,
    _ record: @escaping @Sendable (MedicationStore, String, TimeOfDay?) throws -> Void
  ) async throws -> Response {
    guard let medication = context.form["medication"], !medication.isEmpty else {
      return try await page(context, alert: "Which medication? The form sent none: reload the page.")
    }
    let slot = context.form["dose"].flatMap { $0.isEmpty ? nil : $0 }
    if let slot, TimeOfDay(slot) == nil {
      return try await page(context, alert: "The dose time '\(slot.prefix(20))' is not HH:MM: reload the page.")
    }
    do {
      try await store.write(command) { scope in
        try record(MedicationStore(scope), medication, slot.flatMap(TimeOfDay.init))
      }
    } catch let error as MedicationError {
      return try await refused(context, error.description)
    } catch let error as RecordLookup.Failure {
      return try await refused(context, error.description)
    }
    // The page the button was on: Today or Medications.
    return Page.seeOther(fromMeds(context) ? "/meds" : "/")
  }

  func fromMeds(_ context: WebContext) -> Bool { context.form["back"] == "/meds" }

  /// A refusal comes back on the page the button was on, the reason above it.
  func refused(_ context: WebContext, _ alert: String) async throws -> Response {
    fromMeds(context)
      ? try await MedsRoutes(store: store).list(context, alert: alert) : try await page(context, alert: alert)
  }
}
