import CLIApp
import CLICore
import Core
import Health

/// What a command about one kind of record opens: the app, the logged-in account with its
/// profile, and the kind's store over them. Each kind names it (`DonorContext`) and adds what
/// its commands share in an extension.
struct Context<Store: AccountScoped> {
  let app: App
  let store: Store
  /// Sex and region decide donation rules and questions; a read of one row.
  let profile: Profile

  var account: Account { store.account }

  init(_ global: GlobalOptions) throws {
    app = try App(global)
    let scope = AccountScope(db: app.db, account: try app.requireAccount(), now: app.now, calendar: app.calendar)
    store = Store(scope)
    profile = try ProfileStore(scope).load()
  }
}

typealias DonorContext = Context<DonationStore>
typealias HealthContext = Context<HealthStore>
typealias AreaContext = Context<AreaStore>
typealias RemindersContext = Context<ReminderEngine>
typealias CycleContext = Context<PeriodStore>
typealias MedsContext = Context<MedicationStore>
typealias GoalsContext = Context<GoalStore>
