import Foundation
import Storage

/// The changes made on this device, command by command, so that one can be undone.
///
/// A command opens a change with `begin`; every `Replica` write it then makes is a step of that
/// change, with the values it replaced. Writes made outside a change (merges from other
/// devices, tests that write directly) are not journaled: an undo never reverts another
/// device's work. The journal is local and never syncs; an undo is itself a change, written
/// through `Replica`, so it syncs like any edit.
public struct ChangeJournal {
  let db: Database
  let accountID: String

  public init(db: Database, accountID: String) {
    self.db = db
    self.accountID = accountID
  }

  /// How many changes are kept per account; older ones drop off.
  public static let kept = 200

  /// Starts a change named `command` (`donor edit`): the writes made through `db` from now on
  /// belong to it. The change is stored with its first write, so a command that changes
  /// nothing leaves nothing to undo.
  public static func begin(_ db: Database, command: String, undoing: String? = nil) {
    db[attached: Open.self] = Open(id: UUID().uuidString.lowercased(), command: command, undoes: undoing)
  }

  /// Stops journaling writes on `db`.
  public static func end(_ db: Database) {
    db[attached: Open.self] = nil
  }

  /// The change open on `db`, to carry on with on another connection (`resume`).
  public static func open(on db: Database) -> Open? { db[attached: Open.self] }

  /// Journals the writes made through `db` as part of `change` (made on another connection).
  public static func resume(_ change: Open?, on db: Database) {
    db[attached: Open.self] = change
  }

  /// The change a command is making on a connection, attached to it between `begin` and `end`.
  public struct Open: Sendable {
    let id: String
    let command: String
    /// The change this one undoes.
    let undoes: String?
  }

  /// What a step did to its record.
  public enum Action: String, Sendable {
    case create, edit, delete, restore
    /// A bulk insert of new records (an import), all stamped with the step's clock.
    case `import`
    /// The records of an import taken back by an undo.
    case withdraw
  }

  public struct Change: Sendable {
    public let id: String
    public let seq: Int64
    public let at: Date
    public let command: String
    public let undoes: String?
    public let undoneBy: String?
    public let steps: [Step]
  }

  public struct Step: Sendable {
    public let action: Action
    public let dataset: String
    public let rowID: String
    public let hlc: String
    public let fields: [String]
    /// The replaced values: edited fields before the edit, a deleted record whole.
    public let before: [String: DatabaseValue]
  }

  /// Records one step of the open change, if a change is open. Runs inside the write's
  /// transaction, so a write that rolls back leaves no step.
  func note(
    _ action: Action, _ dataset: Dataset, id: String, hlc: HLC, fields: [String], before: [String: DatabaseValue] = [:],
    at now: Date
  ) throws {
    guard let open = db[attached: Open.self] else { return }
    let change = open.id
    try db.execute(
      """
      INSERT INTO change_log (id, account_id, at, command, undoes)
      SELECT ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS (SELECT 1 FROM change_log WHERE id = ?1)
      """, change, accountID, now, open.command, open.undoes)
    if db.changes == 1 { try prune() }
    let n =
      try db.scalar(Int.self, "SELECT coalesce(max(n), -1) + 1 FROM change_step WHERE change_id = ?", change) ?? 0
    try db.execute(
      "INSERT INTO change_step (change_id, n, action, dataset, row_id, hlc, fields) VALUES (?, ?, ?, ?, ?, ?, ?)",
      change, n, action.rawValue, dataset.name, id, hlc.description, fields.sorted().joined(separator: ","))
    for (field, value) in before {
      try db.execute(
        "INSERT INTO change_before (change_id, n, field, value) VALUES (?, ?, ?, ?)", change, n, field, value)
    }
  }

  /// Whether a change is open on `db`.
  static func isOpen(_ db: Database) -> Bool { db[attached: Open.self] != nil }

  private func prune() throws {
    try db.execute(
      """
      DELETE FROM change_log WHERE account_id = ? AND seq <= (
        SELECT seq FROM change_log WHERE account_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)
      """, accountID, accountID, Self.kept)
  }

  // MARK: Reading

  /// The text values `field` of `dataset` held before a change still in the journal: what an
  /// undo could write back, so what must stay (an avatar's blob, for one).
  public func replacedValues(_ dataset: Dataset, field: String) throws -> Set<String> {
    Set(
      try db.query(
        """
        SELECT DISTINCT b.value FROM change_log l
        JOIN change_step s ON s.change_id = l.id
        JOIN change_before b ON b.change_id = s.change_id AND b.n = s.n
        WHERE l.account_id = ? AND s.dataset = ? AND b.field = ? AND typeof(b.value) = 'text'
        """, accountID, dataset.name, field
      ) { try $0.get(0, as: String.self) })
  }

  /// The newest `limit` changes, newest first.
  public func recent(limit: Int = 20) throws -> [Change] {
    let rows = try db.query(
      "SELECT id FROM change_log WHERE account_id = ? ORDER BY seq DESC LIMIT ?", accountID, limit
    ) { try $0.get(0, as: String.self) }
    return try rows.compactMap(change)
  }

  /// What `vital undo` takes back: the newest change not undone yet that is not itself an undo
  /// (so undoing again walks further back; an undo is taken back by naming it).
  public func lastUndoable() throws -> Change? {
    let id = try db.scalar(
      String.self,
      "SELECT id FROM change_log WHERE account_id = ? AND undone_by IS NULL AND undoes IS NULL ORDER BY seq DESC LIMIT 1",
      accountID)
    return try id.flatMap(change)
  }

  /// The change with sequence number `seq` (as `--list` shows it).
  public func change(seq: Int64) throws -> Change? {
    let id = try db.scalar(
      String.self, "SELECT id FROM change_log WHERE account_id = ? AND seq = ?", accountID, seq)
    return try id.flatMap(change)
  }

  func change(_ id: String) throws -> Change? {
    let befores = try db.query(
      "SELECT n, field, value FROM change_before WHERE change_id = ?", id
    ) { row in (try row.get(0, as: Int.self), try row.get(1, as: String.self), row[2]) }
    var valuesByStep: [Int: [String: DatabaseValue]] = [:]
    for (n, field, value) in befores { valuesByStep[n, default: [:]][field] = value }
    let steps = try db.query(
      "SELECT n, action, dataset, row_id, hlc, fields FROM change_step WHERE change_id = ? ORDER BY n", id
    ) { row -> Step in
      let n = try row.get(0, as: Int.self)
      guard let action = Action(rawValue: try row.get(1)) else {
        throw StorageError.typeMismatch(column: "action", expected: "a known action", sql: nil)
      }
      let fields = try row.get(5, as: String.self)
      return Step(
        action: action, dataset: try row.get(2), rowID: try row.get(3), hlc: try row.get(4),
        fields: fields.isEmpty ? [] : fields.split(separator: ",").map(String.init), before: valuesByStep[n] ?? [:])
    }
    return try db.queryFirst(
      "SELECT seq, at, command, undoes, undone_by FROM change_log WHERE id = ? AND account_id = ?", id, accountID
    ) { row in
      Change(
        id: id, seq: try row.get(0), at: try row.get(1), command: try row.get(2), undoes: try row.get(3),
        undoneBy: try row.get(4), steps: steps)
    }
  }
}
