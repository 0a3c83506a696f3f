extension Database {
  /// Runs `body`, a bulk insert into `table`, with the table's own indexes dropped, and builds
  /// them again after it: for many rows in an order an index does not follow, one sort at the
  /// end writes each of its pages once, where inserting into it row by row touches a random
  /// page each time. The indexes that keys and UNIQUE constraints make stay.
  ///
  /// Inside a transaction, so that other connections never see the table without them; when
  /// `body` fails they are built again all the same.
  public func withIndexesBuiltAfter<T>(on table: String, _ body: () throws -> T) throws -> T {
    precondition(isInTransaction, "indexes are dropped for a bulk insert only inside a transaction")
    let indexes = try query(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name",
      table
    ) { (name: try $0.get(0, as: String.self), sql: try $0.get(1, as: String.self)) }
    for index in indexes { try execute("DROP INDEX \"\(index.name.replacingOccurrences(of: "\"", with: "\"\""))\"") }
    let result: T
    do {
      result = try body()
    } catch {
      for index in indexes { _ = try? execute(index.sql) }
      throw error
    }
    for index in indexes { try execute(index.sql) }
    return result
  }
}
