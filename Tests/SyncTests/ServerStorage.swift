import Foundation
import Storage
import TestServer

/// The test server's stored records, read and rewritten behind its back: what a curious or
/// hostile operator can do. SQLite through the file, PostgreSQL through psql.
struct ServerStorage: Sendable {
  /// The SQLite store's file, or the PostgreSQL database's name.
  let sqlitePath: String
  let database: String?

  init(sqlitePath: String, database: String?) {
    self.sqlitePath = sqlitePath
    self.database = database
  }

  init(server: TestServer) {
    self.init(sqlitePath: server.dataDirectory + "/server.sqlite", database: server.database)
  }

  /// The stored fields JSON of every record, keyed by dataset and id.
  func records() throws -> [(dataset: String, id: String, fields: String)] {
    if database == nil {
      let db = try Database(path: sqlitePath)
      return try db.query("SELECT dataset, row_id, fields FROM records ORDER BY seq") {
        (try $0.get(0, as: String.self), try $0.get(1, as: String.self), try $0.get(2, as: String.self))
      }
    }
    return try psql("SELECT dataset || chr(1) || row_id || chr(1) || fields FROM records ORDER BY seq")
      .split(separator: "\n").map { line in
        let parts = line.split(separator: "\u{1}", maxSplits: 2).map(String.init)
        return (parts[0], parts[1], parts[2])
      }
  }

  func setFields(dataset: String, id: String, _ fields: String) throws {
    if database == nil {
      let db = try Database(path: sqlitePath)
      try db.execute("UPDATE records SET fields = ? WHERE dataset = ? AND row_id = ?", fields, dataset, id)
    } else {
      _ = try psql(
        "UPDATE records SET fields = $v$\(fields)$v$ WHERE dataset = $v$\(dataset)$v$ AND row_id = $v$\(id)$v$")
    }
  }

  /// Every byte the server keeps: the SQLite files, or a dump of the PostgreSQL tables.
  func allBytes() throws -> Data {
    if database == nil {
      var bytes = Data()
      for suffix in ["", "-wal"] {
        if let data = FileManager.default.contents(atPath: sqlitePath + suffix) { bytes.append(data) }
      }
      return bytes
    }
    let text = try psql(
      "SELECT string_agg(fields, ' ') FROM records UNION ALL SELECT string_agg(encode(data, 'escape'), ' ') FROM blobs "
        + "UNION ALL SELECT string_agg(coalesce(sync_key, ''), ' ') FROM users")
    return Data(text.utf8)
  }

  func psql(_ sql: String) throws -> String {
    let environment = ProcessInfo.processInfo.environment
    guard let base = environment["VITAL_TEST_POSTGRES"], let bin = environment["VITAL_TEST_PGBIN"],
      let url = URLComponents(string: base), let database
    else { throw NSError(domain: "ServerStorage", code: 1) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: bin + "/psql")
    process.arguments = [
      "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", url.host ?? "127.0.0.1", "-p", String(url.port ?? 5432),
      "-U", url.user ?? "vital", "-d", database, "-c", sql,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw NSError(domain: "ServerStorage", code: 2) }
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
