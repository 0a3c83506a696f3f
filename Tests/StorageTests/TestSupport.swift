import Foundation
import Testing

@testable import Storage

/// A fresh folder under the system temp directory, removed when the value is released.
final class TemporaryFolder {
  let path: String

  init() throws {
    let template = NSTemporaryDirectory() + "/vital-test-XXXXXX"
    var bytes = Array(template.utf8CString)
    guard let made = mkdtemp(&bytes) else { throw CocoaError(.fileWriteUnknown) }
    path = String(cString: made)
  }

  func file(_ name: String) -> String { path + "/" + name }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The folder holding the built products (the test bundle sits next to them).
let productsDirectory: URL = {
  if let dir = ProcessInfo.processInfo.environment["VITAL_PRODUCTS_DIR"] {
    return URL(fileURLWithPath: dir)
  }
  return Bundle.main.bundleURL
}()

/// Every row of every user table, as text, to compare whole database contents.
func dump(_ db: Database) throws -> [String] {
  let tables = try db.query(
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
  ) { try $0.get(0, as: String.self) }
  var lines: [String] = []
  for table in tables {
    let rows = try db.query("SELECT * FROM \(table)") { row in
      (0..<row.count).map { "\(row[$0])" }.joined(separator: "|")
    }
    lines += rows.sorted().map { "\(table): \($0)" }
  }
  return lines
}
