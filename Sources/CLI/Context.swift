import CLIApp
import CLICore
import Core
import Records
import Views

/// What a command about one kind of record opens: the app, the logged-in account, and the
/// kind's store over them. Each kind names it (`DonorContext`) and adds what its commands share
/// in an extension.
struct Context<Store: AccountScoped> {
  let app: App
  let store: Store

  var account: Account { store.account }

  init(_ global: GlobalOptions) throws {
    app = try App(global)
    store = Store(AccountScope(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar))
  }
}

extension Context where Store == DonationStore {
  /// Sex and region decide donation rules and questions: read when a command asks, one row.
  var profile: Profile {
    get throws { try ProfileStore(store.scope).load() }
  }

  /// The days periods began: no donation is booked just after one.
  var periodStarts: [LocalDate] {
    get throws { try PeriodStore(store.scope).startDays() }
  }
}

typealias DonorContext = Context<DonationStore>
typealias HealthContext = Context<HealthStore>
typealias AreaContext = Context<AreaStore>
typealias RemindersContext = Context<ReminderEngine>
typealias CycleContext = Context<PeriodStore>
typealias MedsContext = Context<MedicationStore>
typealias GoalsContext = Context<GoalStore>
typealias LabsContext = Context<LabStore>
