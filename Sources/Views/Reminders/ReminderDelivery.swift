import Foundation
import Records
import Storage

/// `vital reminders notify`: delivers each due reminder exactly once. The decision and the
/// delivery log entry are written in one IMMEDIATE transaction, so a second run at the same
/// moment waits for the first and then finds the reminder logged.
public struct ReminderDelivery {
  let engine: ReminderEngine

  /// A reminder later than this is reported as missed instead of delivered.
  public static let lateness: TimeInterval = 12 * 3600
  /// How far back a run looks for reminders it has not handled yet.
  public static let lookback: TimeInterval = 7 * 86_400

  public init(engine: ReminderEngine) { self.engine = engine }

  public struct Outcome: Sendable {
    public var delivered: [Reminder] = []
    public var missed: [Reminder] = []
    public var failed = 0
  }

  /// Hands each due, unhandled reminder to `deliver` (its second argument says whether it is
  /// reported as missed). A reminder whose delivery throws is not logged and comes again next run.
  public func run(deliver: (Reminder, Bool) throws -> Void) throws -> Outcome {
    let db = engine.db
    let account = engine.account.id
    let now = engine.now
    return try db.transaction { db in
      let lastRun = try db.scalar(Date.self, "SELECT last_run FROM reminder_run WHERE account_id = ?", account)
      // The first run starts fresh: it does not report a week of old reminders as missed.
      let from = max(now.addingTimeInterval(-Self.lookback), lastRun ?? now.addingTimeInterval(-Self.lateness))
      var outcome = Outcome()
      for reminder in try engine.reminders(from: from, to: now) {
        let handled = try db.scalar(
          Int.self, "SELECT EXISTS (SELECT 1 FROM reminder_delivery WHERE account_id = ? AND reminder = ?)", account,
          reminder.key)
        if handled == 1 { continue }
        let missed = now.timeIntervalSince(reminder.at) > Self.lateness
        do {
          try db.transaction { db in
            try db.execute(
              """
              INSERT INTO reminder_delivery (account_id, reminder, due_at, delivered_at, outcome)
              VALUES (?, ?, ?, ?, ?)
              """, account, reminder.key, reminder.at, now, missed ? "missed" : "delivered")
            try deliver(reminder, missed)
          }
          if missed { outcome.missed.append(reminder) } else { outcome.delivered.append(reminder) }
        } catch let error as StorageError {
          throw error
        } catch {
          // The delivery itself failed (notify-send refused): not logged, so tried again next run.
          outcome.failed += 1
        }
      }
      try db.execute("INSERT OR REPLACE INTO reminder_run (account_id, last_run) VALUES (?, ?)", account, now)
      try db.execute(
        "DELETE FROM reminder_delivery WHERE account_id = ? AND due_at < ?", account,
        now.addingTimeInterval(-2 * Self.lookback))
      return outcome
    }
  }
}
