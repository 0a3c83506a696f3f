import Auth
import Foundation
import Records
import Replication
import Storage
import Sync
import Views

/// Vital's database: every migration in the order it shipped, today's table descriptions (which
/// stores read and write by), and the datasets that sync. Append only: a shipped migration is
/// never edited, a change is a new one. Each holds the SQL it shipped with (`Shipped`), never
/// today's descriptions: a test checks that the migrations build what the descriptions say, and
/// that a home made by any older release ends up as one made today. `schema.sql` at the project
/// root is what they build (`scripts/update-schema` writes it, a test checks it).
public enum VitalSchema {
  /// The migrations as they shipped, one `static let` each, in `Migrations/`.
  enum Shipped {}

  public static let migrator = Migrator([
    Shipped.meta, Shipped.accounts, Shipped.donations, Shipped.sync, Shipped.cycleMedications, Shipped.reminders,
    Shipped.healthGoals, Shipped.areas, Shipped.syncKey,
    // Record ids of encrypted accounts are now sealed with AES-SIV (`e2.`): each such account
    // sends every record again, under its new id (docs/sync-protocol.md, "Record ids").
    Migration("0010_siv_record_ids") { db in
      for account in try db.query("SELECT account_id FROM sync_key", row: { try $0.get(0, as: String.self) }) {
        try Replica(db: db, accountID: account, now: Date()).requeueAll()
      }
    },
    Shipped.healthSources.then(HealthStore.noteSourcesOfStoredSamples),
    Shipped.changeJournal, Shipped.idsPerAccount, Shipped.syncSetAside,
    // Emails in Unicode NFC: one address typed two ways is one account. Two accounts that are
    // one address in NFC are both kept (`vital db check` names them); nothing is merged.
    Migration("0015_nfc_emails") { db in try AccountStore.normalizeStoredEmails(db) },
    Shipped.medicationPlans, Shipped.donationVitals, Shipped.cycleNotes, Shipped.syncRefused, Shipped.workoutRoutes,
    Shipped.vitalDays, Shipped.labResults, Shipped.choiceChecks,
  ])

  /// Today's description of every table the migrations make (but the R*Tree over districts):
  /// stores read and write by these, and a test checks that they are what the migrations built.
  public static let tables: [Table] = [
    Replica.meta, AccountStore.accounts, AccountStore.sessions, ProfileStore.blobs, ProfileStore.profiles,
    DonationStore.donations, DonationStore.questionnaires, Replica.rows, Replica.outbox, RemoteSettings.table,
    PeriodStore.periods, MedicationStore.medications, MedicationStore.doses, ReminderSettings.sources,
    ReminderDelivery.deliveries, ReminderDelivery.runs, HealthStore.samples, HealthStore.workouts,
    HealthStore.activitySummaries, GoalStore.goals, AreaStore.areas, AreaStore.stats, AreaStore.settings,
    AreaStore.watches, AreaStore.watchStates, AreaStore.notices, SyncKey.table, HealthStore.sources,
    HealthStore.counted, HealthStore.countedState, Replica.changedDays, ChangeJournal.changes, ChangeJournal.steps,
    ChangeJournal.before, Replica.setAside, PeriodStore.notes, PeriodStore.pauses, Replica.refused,
    HealthStore.workoutRoutes, HealthStore.vitalDays, HealthStore.vitalDaysState, LabStore.results,
  ]

  /// Every synced dataset, in the order a new device applies them (blobs before the profile
  /// that points at them).
  public static let datasets: [Dataset] = [
    .blob, .profile, .questionnaire, .donation, .period, .cycleNote, .cyclePause, .medication, .dose, .healthSource,
    .healthSample, .workout, .workoutRoute,
    .activitySummary,
    .goal, .areaWatch, .labResult,
  ]

  /// Takes the secrets out of a copy of the database: sessions (a login on this device), server
  /// tokens and sync keys. The copy keeps every record; restored, it asks for a login (and the
  /// sync passphrase) again. Deleted bytes are overwritten, not left in free pages.
  public static func removeSecrets(_ db: Database) throws {
    try db.execute("PRAGMA secure_delete = ON")
    try db.transaction { db in
      try db.execute("DELETE FROM \(AccountStore.sessions.name)")
      try db.execute("UPDATE \(RemoteSettings.table.name) SET token = NULL")
      try db.execute("DELETE FROM \(SyncKey.table.name)")
    }
    try db.execute("VACUUM")
  }

  /// Opens the database at `path` and brings it up to date. A file from a newer Vital is refused
  /// before anything is written.
  public static func open(path: String) throws -> Database {
    let db = try Database(path: path)
    // Indexes a first sync left out and a crash kept out (`DeferredIndexes`) are built before
    // a migration changes their tables: a note never outlives the schema it was written for.
    try migrator.migrate(db, beforeUpgrade: { try DeferredIndexes.restore(in: $0) })
    return db
  }
}
