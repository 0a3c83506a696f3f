import Foundation
import Storage

extension ChangeJournal {
  /// What an undo did.
  public struct Undone: Sendable {
    /// The change taken back.
    public let change: Change
    /// The new change that takes it back (itself undoable by its number).
    public let undo: Change?
    /// Steps that could not be taken back, and why (changed since on another device, say).
    public let kept: [String]
  }

  public enum UndoError: Error, Equatable, CustomStringConvertible {
    case nothingToUndo
    case noSuchChange(Int64)
    case alreadyUndone(Int64)

    public var description: String {
      switch self {
      case .nothingToUndo: "there is nothing to undo on this device; 'vital undo --list' shows what was done"
      case .noSuchChange(let seq):
        "there is no change \(seq) on this device; 'vital undo --list' shows the last ones with their numbers"
      case .alreadyUndone(let seq):
        "change \(seq) was undone already; to take the undo back, name the undo's own number"
      }
    }
  }

  /// Takes back `change` as a new change named `undo`, in one transaction: what it created is
  /// deleted, what it edited gets its old values, what it deleted comes back, what it imported
  /// is withdrawn. A field changed since by anything else (another device, a later command)
  /// keeps its newer value, and `kept` says so.
  public func undo(_ change: Change, datasets: [Dataset], now: Date) throws -> Undone {
    if change.undoneBy != nil { throw UndoError.alreadyUndone(change.seq) }
    let replica = Replica(db: db, accountID: accountID, now: now)
    var kept: [String] = []
    let undoID = try db.transaction { db -> String in
      ChangeJournal.begin(db, command: "undo \(change.seq)", undoing: change.id)
      defer { ChangeJournal.end(db) }
      let undoID = db[attached: Open.self]!.id
      // An import's batches are taken back together: one pass over each dataset's clocks.
      let imports = Dictionary(grouping: change.steps.filter { $0.action == .import }, by: \.dataset)
      for (name, steps) in imports.sorted(by: { $0.key < $1.key }) {
        guard let dataset = datasets.named(name) else { continue }
        _ = try replica.withdraw(dataset, importedAt: Set(steps.map(\.hlc)))
      }
      for step in change.steps.reversed() where step.action != .import {
        guard let dataset = datasets.named(step.dataset) else {
          kept.append("\(step.dataset) \(step.rowID): this version of Vital does not know that kind of record")
          continue
        }
        if let reason = try revert(step, dataset, replica) { kept.append(reason) }
      }
      try db.execute(
        """
        INSERT INTO change_log (id, account_id, at, command, undoes)
        SELECT ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS (SELECT 1 FROM change_log WHERE id = ?1)
        """, undoID, accountID, now, "undo \(change.seq)", change.id)
      try db.execute("UPDATE change_log SET undone_by = ? WHERE id = ?", undoID, change.id)
      // Taking an undo back makes the change it undid live again: the next undo may take it.
      if let undone = change.undoes {
        try db.execute("UPDATE change_log SET undone_by = NULL WHERE id = ?", undone)
      }
      return undoID
    }
    return Undone(change: change, undo: try self.change(undoID), kept: kept)
  }

  /// Reverts one step; returns why not when it cannot.
  private func revert(_ step: Step, _ dataset: Dataset, _ replica: Replica) throws -> String? {
    // The table's name in words (`health sample`), as the change list says it.
    let kind = step.dataset.replacingOccurrences(of: "_", with: " ")
    let short = "\(kind) \(step.rowID.prefix(12))"
    let clocks = try replica.clocks(dataset, step.rowID)
    let deleted = try replica.isDeleted(dataset, id: step.rowID)
    switch step.action {
    case .create, .restore:
      guard !deleted, try replica.exists(dataset, id: step.rowID) else { return nil }
      try replica.delete(dataset, id: step.rowID)
    case .edit:
      guard !deleted else { return "\(short) was deleted since; nothing to put back" }
      var back: [String: DatabaseValue] = [:]
      var changedSince: [String] = []
      for (field, value) in step.before {
        if clocks[field]?.description == step.hlc { back[field] = value } else { changedSince.append(field) }
      }
      if !back.isEmpty { try replica.write(dataset, id: step.rowID, back) }
      if !changedSince.isEmpty {
        return "\(short): \(changedSince.sorted().joined(separator: ", ")) changed again since; left as it is now"
      }
    case .delete:
      guard let state = FieldMerge.deletion(in: clocks), state.kind == .deleted, state.hlc.description == step.hlc
      else { return "\(short) was changed since it was deleted; left as it is now" }
      try replica.restore(dataset, id: step.rowID, step.before)
    case .import:
      break  // taken back with the other batches of its import, above
    case .withdraw:
      return
        "the \(kind) records the undo took back are not kept on this device; import the file again to bring them back"
    }
    return nil
  }
}
