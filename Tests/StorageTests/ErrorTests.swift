import Foundation
import Testing

@testable import Storage

@Suite struct ErrorTests {
  let db: Database

  init() throws {
    db = try Database.inMemory()
    try db.executeScript(
      """
      CREATE TABLE account (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE) STRICT;
      CREATE TABLE donation (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES account(id),
        volume_ml INTEGER NOT NULL CHECK (volume_ml > 0)
      ) STRICT;
      """)
    try db.execute("INSERT INTO account (id, email) VALUES (?, ?)", "a1", "secret.person@example.org")
  }

  /// Runs `body`, expecting a constraint error; returns it.
  func constraintError(_ body: () throws -> Void) throws -> StorageError {
    do {
      try body()
    } catch let error as StorageError {
      guard case .constraint = error else {
        Issue.record("expected a constraint error, got \(error)")
        return error
      }
      return error
    }
    Issue.record("expected the statement to fail")
    throw CancellationError()
  }

  @Test func uniqueViolationCarriesItsCodeAndSQLButNoValue() throws {
    let error = try constraintError {
      try db.execute("INSERT INTO account (id, email) VALUES (?, ?)", "a2", "secret.person@example.org")
    }
    #expect(error.code == 2067)  // SQLITE_CONSTRAINT_UNIQUE
    #expect(error.primaryCode == 19)
    #expect(error.sql == "INSERT INTO account (id, email) VALUES (?, ?)")
    #expect(!"\(error)".contains("secret.person"))
    #expect(!"\(error)".contains("a2"))
  }

  @Test func foreignKeysAreEnforced() throws {
    let error = try constraintError {
      try db.execute("INSERT INTO donation (id, account_id, volume_ml) VALUES (?, ?, ?)", "d1", "nobody-4711", 450)
    }
    #expect(error.code == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
    #expect(!"\(error)".contains("nobody-4711"))
  }

  @Test func checkAndStrictTypesAreConstraintErrors() throws {
    let check = try constraintError {
      try db.execute("INSERT INTO donation (id, account_id, volume_ml) VALUES (?, ?, ?)", "d1", "a1", -450)
    }
    #expect(check.code == 275)  // SQLITE_CONSTRAINT_CHECK
    #expect(!"\(check)".contains("-450"))
    let strict = try constraintError {
      try db.execute("INSERT INTO donation (id, account_id, volume_ml) VALUES (?, ?, ?)", "d1", "a1", "lots-of-blood")
    }
    #expect(strict.code == 3091)  // SQLITE_CONSTRAINT_DATATYPE
    #expect(!"\(strict)".contains("lots-of-blood"))
  }

  @Test func syntaxErrorsNameTheSQL() throws {
    #expect(throws: StorageError.self) { try db.execute("SELEC 1") }
    do {
      try db.execute("SELEC 1")
    } catch let error as StorageError {
      #expect(error.primaryCode == 1)
      #expect("\(error)".contains("SELEC 1"))
    }
  }

  @Test func aFileThatIsNotADatabaseIsRefusedOnOpen() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("notes.sqlite")
    try Data("this is a text file, not a database, and it is long enough to have a header".utf8)
      .write(to: URL(fileURLWithPath: path))
    #expect {
      _ = try Database(path: path)
    } throws: { error in
      guard case .cannotOpen(_, let code, _) = error as? StorageError else { return false }
      return code & 0xFF == 26  // SQLITE_NOTADB
    }
  }
}
