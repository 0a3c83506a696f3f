import Storage
import Testing

@testable import Replication

/// What a dataset reads from its table's description.
@Suite struct DatasetTests {
  /// The default a `NOT NULL DEFAULT` column keeps for a field that comes as NULL: a whole number
  /// or a quoted text, in any case, and nothing for what is neither.
  @Test(arguments: [
    ("INTEGER NOT NULL DEFAULT 0", DatabaseValue.integer(0)),
    ("INTEGER NOT NULL DEFAULT -5 CHECK (x > -10)", .integer(-5)),
    ("TEXT NOT NULL default 'it''s'", .text("it's")),
    ("TEXT NOT NULL DEFAULT  ''", .text("")),
    ("TEXT NOT NULL DEFAULT\t'a b'", .text("a b")),
  ])
  func aDefaultIsReadFromTheDefinition(definition: String, expected: DatabaseValue) {
    #expect(Dataset.defaultValue(definition) == expected)
  }

  @Test(arguments: ["TEXT NOT NULL", "INTEGER DEFAULT 5x", "TEXT DEFAULT 'open", "TEXT DEFAULT", "DEFAULTED 1"])
  func noDefaultWhereThereIsNone(definition: String) {
    #expect(Dataset.defaultValue(definition) == nil)
  }

  /// A detached copy (a page's own, `SyncClient.check`) is the same dataset: equal, one hash,
  /// the same description; another dataset stays another.
  @Test func aDetachedDatasetIsTheSameDataset() {
    let table = Table("t", [.text("id", "NOT NULL"), .text("account_id", "NOT NULL"), .text("a", "NOT NULL")])
    let (dataset, other) = (Dataset(table), Dataset(table, stamp: nil, local: ["a"]))
    let copy = dataset.detached()
    #expect(copy == dataset && copy.hashValue == dataset.hashValue && Set([copy, dataset]).count == 1)
    #expect(copy.fields == dataset.fields && copy.required == dataset.required && copy.name == dataset.name)
    #expect(copy != other && other.detached() == other && other.detached() != copy)
  }

  /// Which fields are required, and which the table fills in, come from the words of each
  /// column's definition, in any case, wherever they stand in it.
  @Test func requiredAndDefaultedFieldsComeFromTheDefinitions() {
    let table = Table(
      "t",
      [
        .text("id", "NOT NULL"), .text("account_id", "NOT NULL"), .text("a", "not null"),
        .text("c", "NOT NULL DEFAULT 'x'"), .text("d", ""), .text("f", "CHECK (f <> '') NOT NULL"),
        Table.Column("g", "INTEGER NOT NULL default 0"),
      ])
    let dataset = Dataset(table)
    #expect(dataset.fields == ["a", "c", "d", "f", "g"])
    #expect(dataset.required == ["a", "f"])
    #expect(dataset.defaults == ["c": .text("x"), "g": .integer(0)])
    #expect(Dataset.has("NOT NULL", "NOT NULL") && !Dataset.has("NOT NUL", "NOT NULL") && Dataset.has("ab", ""))
  }

  /// An instant's year is its year in UTC: text written with an offset can fall in the year
  /// before or after the one it shows.
  @Test(arguments: [
    ("2200-12-31T23:59:59.000Z", true), ("2201-01-01T00:00:00.000Z", false),
    ("2201-01-01T00:30:00+01:00", true), ("2200-12-31T23:30:00-01:00", false),
    ("1900-01-01T00:00:00.000Z", true), ("1899-12-31T23:59:59.999Z", false),
    ("1899-12-31T23:30:00-01:00", true), ("1900-01-01T00:30:00+01:00", false),
    ("2026-02-29T10:00:00.000Z", false), ("2024-02-29T10:00:00.000Z", true),
  ])
  func anInstantIsInItsYearsInUTC(text: String, inside: Bool) {
    #expect((FieldRule.instant(years: 1900...2200).fault(.text(text)) == nil) == inside, "\(text)")
  }
}
