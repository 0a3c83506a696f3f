import Core
import Foundation
import Schema
import Storage

/// A fresh database with Vital's schema and one account, in memory.
struct TestAccount {
  let db: Database
  let account = Account(id: "acc", email: "test@example.org", name: nil)

  init() throws {
    db = try Database.inMemory()
    try VitalSchema.migrator.migrate(db)
    try db.execute(
      "INSERT INTO account (id, email, password_hash, created_at) VALUES (?, ?, 'x', '2020-01-01T00:00:00Z')",
      account.id, account.email)
  }
}
