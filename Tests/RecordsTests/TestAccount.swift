import Auth
import Core
import Foundation
import Schema
import Storage

/// An in-memory database with one account, and a clock in a chosen zone that tests move.
struct TestAccount {
  let db: Database
  let account = Account(id: "acc", email: "test@example.org", name: nil)
  let calendar: Calendar
  let folder: TemporaryFolder?

  /// `onDisk`: a file in a temporary folder, for what opens a second connection (the Apple
  /// Health import's writer).
  init(zone: String = "Europe/Berlin", onDisk: Bool = false) throws {
    if onDisk {
      folder = try TemporaryFolder()
      db = try Database(path: folder!.path + "/vital.sqlite")
    } else {
      folder = nil
      db = try Database.inMemory()
    }
    try VitalSchema.migrator.migrate(db)
    try db.execute(
      "INSERT INTO account (id, email, password_hash, created_at) VALUES (?, ?, 'x', '2020-01-01T00:00:00Z')",
      account.id, account.email)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    self.calendar = calendar
  }

  /// A local wall-clock time, `2026-03-29 09:00`.
  func local(_ text: String) -> Date {
    let f = ISO8601.fields(from: text)!
    return calendar.date(
      from: DateComponents(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute))!
  }
}

/// A folder removed with everything in it when the last test holding it is done.
final class TemporaryFolder: Sendable {
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("vital-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
