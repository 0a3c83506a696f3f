import Core
import Foundation
import Replication
import Schema
import Storage
import Testing

@testable import Interchange
@testable import Records

/// `vital undo` below the command line: the journal a command's writes leave, and taking a
/// change back whatever it was (an edit, a delete, a whole import).
@Suite struct UndoTests {
  let t: TestAccount
  let now = ISO8601.date(from: "2026-11-22T09:00:00Z")!

  init() throws { t = try TestAccount(onDisk: true) }

  var donations: DonationStore { DonationStore(db: t.db, account: t.account, now: now, calendar: t.calendar) }
  var journal: ChangeJournal { ChangeJournal(db: t.db, accountID: t.account.id) }

  /// Runs `body` as one command would: its writes are one change.
  func command<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
    ChangeJournal.begin(t.db, command: name)
    defer { ChangeJournal.end(t.db) }
    return try body()
  }

  func undoLast() throws -> ChangeJournal.Undone {
    let last = try #require(try journal.lastUndoable())
    return try journal.undo(last, datasets: VitalSchema.datasets, now: now)
  }

  func outbox(_ field: String) throws -> [DatabaseValue] {
    try t.db.query("SELECT value FROM sync_outbox WHERE field = ? ORDER BY seq", field) { $0[0] }
  }

  @Test func anEditIsTakenBackFieldByField() throws {
    let d = try command("donor record") {
      try donations.record(at: t.local("2026-10-01 10:00"), place: "Mitte", kind: .wholeBlood, notes: nil)
    }
    _ = try command("donor edit") {
      try donations.edit(d.id, .init(place: "DRK Mitte", notes: "felt fine"), profile: Profile(), periodStarts: [])
    }
    let undone = try undoLast()
    #expect(undone.change.command == "donor edit")
    #expect(undone.kept.isEmpty)
    let back = try donations.find(d.id)
    #expect(back.place == "Mitte")
    #expect(back.notes == nil)
    // The undo is a change like any other: it went to the outbox, so it syncs.
    #expect(try outbox("place").last == .text("Mitte"))
    // And the next undo walks further back: the record itself.
    #expect(try undoLast().change.command == "donor record")
    #expect(try donations.history().isEmpty)
  }

  @Test func aFieldChangedSinceKeepsItsNewerValue() throws {
    let d = try command("donor record") {
      try donations.record(at: t.local("2026-10-01 10:00"), place: "Mitte", kind: .wholeBlood, notes: nil)
    }
    _ = try command("donor edit") {
      try donations.edit(d.id, .init(place: "Nord", notes: "n"), profile: Profile(), periodStarts: [])
    }
    // Another device changes the place afterwards; its change arrives by sync (no change open).
    let later = HLC(
      milliseconds: Int64(now.timeIntervalSince1970 * 1000) + 60_000, counter: 0, node: "00000000000000ff")
    try Replica(db: t.db, accountID: t.account.id, now: now).apply(
      .donation, id: d.id, ["place": (.text("Süd"), later)])
    let undone = try journal.undo(
      try #require(try journal.recent().first { $0.command == "donor edit" }), datasets: VitalSchema.datasets, now: now)
    #expect(undone.kept.count == 1)
    #expect(undone.kept.first?.contains("place") == true)
    let back = try donations.find(d.id)
    #expect(back.place == "Süd", "another device's change is never reverted")
    #expect(back.notes == nil)
  }

  @Test func aDeleteComesBackWholeAndTheRestoreTravels() throws {
    let d = try command("donor record") {
      try donations.record(at: t.local("2026-10-01 10:00"), place: "Mitte", kind: .plasma, notes: "n")
    }
    try t.db.execute("DELETE FROM sync_outbox")
    _ = try command("donor delete") { try donations.delete(d.id) }
    #expect(try outbox("_deleted") == [.integer(1)])
    #expect(try undoLast().change.command == "donor delete")
    #expect(try donations.find(d.id) == d)
    #expect(try outbox("_deleted") == [.integer(1)])
    // The restore goes out whole, with `_deleted` = 0 newer than the delete.
    let pending = try Replica(db: t.db, accountID: t.account.id, now: now).pending(
      limit: 100, in: VitalSchema.datasets)
    let restored = try #require(pending.last { $0.field == "_deleted" && $0.id == d.id })
    #expect(restored.value == .integer(0))
    #expect(Set(pending.filter { $0.seq == restored.seq }.map(\.field)) == Set(Dataset.donation.fields + ["_deleted"]))
  }

  @Test func anUndoIsItselfUndoneByItsNumber() throws {
    let d = try command("donor record") {
      try donations.record(at: t.local("2026-10-01 10:00"), place: "Mitte", kind: .wholeBlood, notes: nil)
    }
    let undone = try undoLast()
    #expect(try donations.history().isEmpty)
    let undo = try #require(undone.undo)
    #expect(undo.command == "undo \(undone.change.seq)")
    #expect(throws: ChangeJournal.UndoError.alreadyUndone(undone.change.seq)) {
      try journal.undo(
        try #require(try journal.change(seq: undone.change.seq)), datasets: VitalSchema.datasets, now: now)
    }
    _ = try journal.undo(undo, datasets: VitalSchema.datasets, now: now)
    #expect(try donations.find(d.id).place == "Mitte")
    // The record is live again, so plain undo takes it back once more.
    #expect(try journal.lastUndoable()?.id == undone.change.id)
  }

  @Test func writesOutsideACommandAreNotJournaled() throws {
    _ = try donations.record(at: t.local("2026-10-01 10:00"), place: "Mitte", kind: .wholeBlood, notes: nil)
    #expect(try journal.recent().isEmpty)
    #expect(try journal.lastUndoable() == nil)
  }

  @Test func aRefusedEditLeavesNothingToUndo() throws {
    let d = try command("donor record") {
      try donations.record(at: t.local("2026-10-01 10:00"), place: "Mitte", kind: .wholeBlood, notes: nil)
    }
    #expect(throws: DonationError.completedInFuture) {
      try command("donor edit") {
        try donations.edit(d.id, .init(at: t.local("2026-12-01 10:00")), profile: Profile(), periodStarts: [])
      }
    }
    #expect(try journal.recent().map(\.command) == ["donor record"])
  }

  @Test func anImportIsTakenBackWholeAndComesBackWhenImportedAgain() throws {
    let path = AppleHealthImportTests.fixtures + "/ios17-export.xml"
    func importer() -> AppleHealthImport {
      AppleHealthImport(db: t.db, accountID: t.account.id, now: now, batchSize: 3)
    }
    let first = try command("health import") { try importer().run(path: path) }
    #expect(first.inserted > 3, "several batches")
    let samples = try t.db.scalar(Int.self, "SELECT count(*) FROM health_sample") ?? 0
    #expect(samples > 0)
    // One sample deleted by hand before the undo stays deleted through it all.
    let gone = try #require(try t.db.scalar(String.self, "SELECT id FROM health_sample ORDER BY id LIMIT 1"))
    try command("health delete") {
      try Replica(db: t.db, accountID: t.account.id, now: now).delete(.healthSample, id: gone)
    }

    let undone = try journal.undo(
      try #require(try journal.recent().first { $0.command == "health import" }), datasets: VitalSchema.datasets,
      now: now)
    #expect(undone.kept.isEmpty)
    for table in ["health_sample", "workout", "activity_summary"] {
      #expect(try t.db.scalar(Int.self, "SELECT count(*) FROM \(table)") == 0, "\(table)")
    }
    #expect(try outbox("_deleted").contains(.integer(2)), "withdrawn, not deleted")

    let again = try command("health import") { try importer().run(path: path) }
    #expect(again.inserted == first.inserted - 1)
    #expect(try t.db.scalar(Int.self, "SELECT count(*) FROM health_sample") == samples - 1)
    #expect(try t.db.scalar(Int.self, "SELECT count(*) FROM health_sample WHERE id = ?", gone) == 0)
  }
}
