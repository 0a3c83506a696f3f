import Core
import Foundation
import Replication
import Schema
import Storage
import Testing

@testable import Interchange
@testable import Records

/// A kind of record is described once (`RecordShape`): a column added to its shape reaches the
/// table, what syncs, the whole-record export and the records read back, with no other edit.
@Suite struct ColumnReachTests {
  struct Note: Sendable, Equatable {
    var id = ""
    var title = ""
    var body: String?
    var stars: Int?
  }

  static let before = RecordShape<Note>(
    blank: { Note() }, [.text("id", \.id), .text("title", \.title), .text("body", \.body)])
  /// The same kind, one column more: the only edit.
  static let after = RecordShape<Note>(blank: { Note() }, before.columns + [.integer("stars", \.stars, 0...5)])

  /// What a feature writes from its shape: the table, its dataset.
  static func describe(_ shape: RecordShape<Note>) -> (Table, Dataset) {
    let table = Table(
      "test_note",
      shape.tableColumns(adding: [
        (after: "id", .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"))
      ]),
      constraints: ["PRIMARY KEY (account_id, id)"])
    return (table, Dataset(table, rules: shape.rules))
  }

  /// Writes a note through the synced path and returns the table's columns, the fields that wait
  /// to be sent, the fields the export holds, and the note read back.
  static func roundTrip(_ shape: RecordShape<Note>, _ note: Note) throws -> ([String], Set<String>, Set<String>, Note) {
    let t = try TestAccount()
    let (table, dataset) = describe(shape)
    try t.db.executeScript(table.createStatements.joined(separator: "\n"))
    let replica = Replica(db: t.db, accountID: t.account.id, now: Date())
    try replica.write(dataset, id: note.id, shape.fields(note, shape.selection(dataset.fields)))

    let columns = try t.db.query("SELECT name FROM pragma_table_info('test_note')") { try $0.get(0, as: String.self) }
    let pending = Set(try replica.pending(limit: 100, in: [dataset]).map(\.field))
    var exported: [UInt8] = []
    _ = try RecordArchive(db: t.db, account: t.account, datasets: [dataset], now: Date()).export { exported += $0 }
    let document = try JSONSerialization.jsonObject(with: Data(exported)) as? [String: Any]
    let notes = (document?["datasets"] as? [[String: Any]])?.first { $0["name"] as? String == "test_note" }
    let record = try #require((notes?["records"] as? [[String: Any]])?.first)
    let fields = Set((notes?["fields"] as? [String]) ?? []).intersection(record.keys)
    let back = try t.db.query("SELECT \(table.list()) FROM test_note", row: shape.record)
    return (columns, pending, fields, try #require(back.first))
  }

  @Test func aColumnAddedToTheShapeReachesTheTableSyncAndExport() throws {
    let note = Note(id: "n1", title: "Ferritin low", body: "eat more iron", stars: 4)
    let (columns, pending, exported, back) = try Self.roundTrip(Self.before, note)
    #expect(!columns.contains("stars") && !pending.contains("stars") && !exported.contains("stars"))
    #expect(back.stars == nil)

    let (columnsAfter, pendingAfter, exportedAfter, backAfter) = try Self.roundTrip(Self.after, note)
    #expect(columnsAfter == ["id", "account_id", "title", "body", "stars"])
    #expect(pendingAfter.isSuperset(of: ["title", "body", "stars"]), "\(pendingAfter)")
    #expect(exportedAfter.contains("stars"), "\(exportedAfter)")
    #expect(backAfter == note)
    #expect(Self.after.rules["stars"] == .integer(0...5))
    #expect(Self.after.name(of: \Note.stars) == "stars")
  }

  /// Every synced kind is described so: the fields its dataset syncs are its shape's columns, in
  /// order, with at most a write time the store adds (`recorded`); its rules are the shape's.
  @Test(arguments: Self.kinds) func everySyncedKindIsItsShape(kind: Kind) {
    let fields = kind.dataset.fields
    #expect(fields.filter(kind.columns.contains) == kind.columns.filter { $0 != kind.dataset.key }, "\(kind)")
    #expect(Set(fields).subtracting(kind.columns).isSubset(of: ["recorded"]), "\(kind)")
    for (name, rule) in kind.rules { #expect(kind.dataset.rules[name] == rule, "\(kind).\(name)") }
  }

  @Test func everySyncedDatasetHasAShape() {
    // Avatar bytes are a blob, not a record kind.
    let described = Set(Self.kinds.map(\.dataset.name))
    #expect(Set(VitalSchema.datasets.map(\.name)).subtracting(described) == [Dataset.blob.name])
    #expect(Donation.shape.name(of: \Donation.vitals.ferritin) == "ferritin_ng_ml")
  }

  struct Kind: Sendable, CustomStringConvertible {
    let dataset: Dataset
    let columns: [String]
    let rules: [String: FieldRule]
    var description: String { dataset.name }

    init<Record>(_ dataset: Dataset, _ shape: RecordShape<Record>) {
      self.dataset = dataset
      columns = shape.columns.map(\.name)
      rules = shape.rules
    }
  }

  static let kinds: [Kind] = [
    Kind(.donation, Donation.shape), Kind(.questionnaire, Questionnaire.Result.shape),
    Kind(.profile, Profile.Stored.shape), Kind(.period, Period.shape), Kind(.cycleNote, CycleNote.shape),
    Kind(.cyclePause, CyclePause.shape), Kind(.medication, Medication.shape), Kind(.dose, Dose.shape),
    Kind(.healthSample, HealthStore.Sample.shape), Kind(.healthSource, HealthSource.shape),
    Kind(.workout, HealthStore.Workout.shape), Kind(.workoutRoute, WorkoutRoute.shape),
    Kind(.activitySummary, HealthStore.ActivitySummary.shape),
    Kind(.goal, Goal.shape), Kind(.areaWatch, AreaStore.Watch.shape), Kind(.labResult, LabResult.shape),
  ]
}
