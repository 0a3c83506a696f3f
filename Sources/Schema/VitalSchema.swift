import Auth
import Foundation
import Health
import Replication
import Storage
import Sync

/// Vital's database: every feature's tables in the order they were added, and the datasets that
/// sync. Each table is described once, next to its store; this file only orders them. Append
/// only: a shipped migration is never edited, a change is a new one. `schema.sql` at the project
/// root is what these build (`scripts/update-schema` writes it, a test checks it).
public enum VitalSchema {
  public static let migrator = Migrator([
    Migration("0001_meta", creating: [Replica.meta], then: Replica.makeDeviceID),
    Migration(
      "0002_accounts",
      creating: [AccountStore.accounts, AccountStore.sessions, ProfileStore.blobs, ProfileStore.profiles]),
    Migration("0003_donations", creating: [DonationStore.donations, DonationStore.questionnaires]),
    Migration("0004_sync", creating: [Replica.rows, Replica.outbox, RemoteSettings.table]),
    Migration(
      "0005_cycle_medications", creating: [PeriodStore.periods, MedicationStore.medications, MedicationStore.doses]),
    Migration(
      "0006_reminders", creating: [ReminderSettings.sources, ReminderDelivery.deliveries, ReminderDelivery.runs]),
    Migration(
      "0007_health_goals",
      creating: [HealthStore.samples, HealthStore.workouts, HealthStore.activitySummaries, GoalStore.goals]),
    Migration(
      "0008_areas",
      creating: [
        AreaStore.areas, AreaStore.stats, AreaStore.settings, AreaStore.watches, AreaStore.watchStates,
        AreaStore.notices,
      ], then: AreaStore.createBoxes),
    Migration("0009_sync_key", creating: [SyncKey.table]),
    // Record ids of encrypted accounts are now sealed with AES-SIV (`e2.`): each such account
    // sends every record again, under its new id (docs/sync-protocol.md, "Record ids").
    Migration("0010_siv_record_ids") { db in
      for account in try db.query("SELECT account_id FROM sync_key", row: { try $0.get(0, as: String.self) }) {
        try Replica(db: db, accountID: account, now: Date()).requeueAll()
      }
    },
    // Totals count each moment once across sources: sources get a kind and a rank, and what
    // each counts is kept per quarter hour (counted on first read from the samples already in).
    Migration(
      "0011_health_sources",
      creating: [HealthStore.sources, HealthStore.counted, HealthStore.countedState, Replica.changedDays],
      then: HealthStore.noteSourcesOfStoredSamples),
    // Every command's changes are journaled on the device that made them, for `vital undo`.
    Migration("0012_change_journal", creating: [ChangeJournal.changes, ChangeJournal.steps, ChangeJournal.before]),
    // Ids made from content (a day's activity, a sample, a catalogue goal) are the same for two
    // accounts importing the same file: every synced table is keyed by (account, id) now.
    Migration(
      "0013_ids_per_account",
      rebuilding: [
        ProfileStore.profiles, DonationStore.donations, DonationStore.questionnaires, PeriodStore.periods,
        MedicationStore.medications, MedicationStore.doses, HealthStore.samples, HealthStore.workouts,
        HealthStore.activitySummaries, GoalStore.goals, AreaStore.watches,
      ]),
    // Records too large for the server are set aside instead of blocking the outbox.
    Migration("0014_sync_set_aside", creating: [Replica.setAside]),
    // Emails in Unicode NFC: one address typed two ways is one account. Two accounts that are
    // one address in NFC are both kept (`vital db check` names them); nothing is merged.
    Migration("0015_nfc_emails") { db in try AccountStore.normalizeStoredEmails(db) },
    // Medications taken as needed, tapers, pinned zones, pauses and snoozes; late doses that
    // shift the rest of their day.
    Migration("0016_medication_plans", rebuilding: [MedicationStore.medications, MedicationStore.doses]),
    // What the blood service measured at a donation; history in an index in its own order.
    Migration("0017_donation_vitals", rebuilding: [DonationStore.donations]),
    // Daily cycle notes (flow, temperature, mucus, ...), pauses, cycles left out by hand, and
    // the time of the morning temperature reminder.
    Migration("0018_cycle_notes", creating: [PeriodStore.notes, PeriodStore.pauses]) { db in
      try db.rebuild(PeriodStore.periods)
      try db.rebuild(ReminderSettings.sources)
    },
    // Records pulled from another device that fail their rules are kept out and listed.
    Migration("0019_sync_refused", creating: [Replica.refused]),
  ])

  /// Every synced dataset, in the order a new device applies them (blobs before the profile
  /// that points at them).
  public static let datasets: [Dataset] = [
    .blob, .profile, .questionnaire, .donation, .period, .cycleNote, .cyclePause, .medication, .dose, .healthSource,
    .healthSample, .workout,
    .activitySummary,
    .goal, .areaWatch,
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
    try migrator.migrate(db)
    return db
  }
}
