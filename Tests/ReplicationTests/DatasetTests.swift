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
}
