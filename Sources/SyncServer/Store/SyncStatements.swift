import Foundation
import PostgresNIO

/// The statements every sync request runs on PostgreSQL, prepared once per connection: the
/// database then neither parses nor, after its first few runs, plans them again. Parsing and
/// planning these CTEs took most of its time per request under load.
enum SyncStatements {
  /// A token's user with what a sync reads of the account, as the read's first row (kind 0).
  /// Every row of a read has this shape; `$1` is the token's SHA-256.
  static let userRow = """
    WITH u AS (
      SELECT u.id, u.seq, u.sync_key_id, u.suspended, u.stored_bytes, u.record_count, t.last_used_at,
        coalesce(u.last_sync_at < now() - interval '1 minute', true) AS stale
      FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.token_sha256 = $1)
    SELECT 0::int2, u.id, u.sync_key_id, NULL::text, u.seq, u.suspended, u.stored_bytes, u.record_count,
      u.last_used_at, u.stale
    FROM u
    UNION ALL
    """

  /// Kind, dataset (or the user's id), row id (or the key id), fields, seq; then the user's
  /// suspended, stored bytes, record count, token last used, last sync stale.
  typealias ReadRow = (Int16, String, String?, String?, Int64, Bool?, Int64?, Int64?, Date?, Bool?)

  /// The user, and the stored records a push names (kind 1). Looked up one by one by primary
  /// key whatever the statistics say (LATERAL ... LIMIT 1): a plan cached while the table was
  /// small read every record of the user through a hash join on each push.
  struct ReadRecords: PostgresPreparedStatement {
    static let name = "vital_sync_read_records"
    static let sql =
      userRow + "\n" + """
        SELECT 1::int2, r.dataset, r.row_id, r.fields, r.seq, NULL::bool, NULL::int8, NULL::int8, NULL::timestamptz,
          NULL::bool
        FROM u CROSS JOIN unnest($2::text[], $3::text[]) AS k(dataset, row_id)
          CROSS JOIN LATERAL (
            SELECT dataset, row_id, fields, seq FROM records
            WHERE user_id = u.id AND dataset = k.dataset AND row_id = k.row_id LIMIT 1) r
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .textArray, .textArray]
    typealias Row = ReadRow
    let token: String
    let datasets: [String]
    let ids: [String]

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 3)
      bindings.append(token)
      bindings.append(datasets)
      bindings.append(ids)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
  }

  /// The user, and a pull's page (kind 2): `$2` bytes of fields at most before a row, after
  /// `$3`, `$4` rows at most.
  struct ReadPage: PostgresPreparedStatement {
    static let name = "vital_sync_read_page"
    static let sql =
      userRow + "\n" + """
        SELECT 2::int2, dataset, row_id, CASE WHEN before < $2 THEN fields END, seq,
          NULL::bool, NULL::int8, NULL::int8, NULL::timestamptz, NULL::bool
        FROM (\(PostgresSyncRepository.pageWindow) WHERE user_id = (SELECT id FROM u) AND seq > $3
          ORDER BY seq LIMIT $4) page
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .int8, .int8, .int8]
    typealias Row = ReadRow
    let token: String
    let budget: Int
    let start: Int64
    let limit: Int

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 4)
      bindings.append(token)
      bindings.append(Int64(budget))
      bindings.append(start)
      bindings.append(Int64(limit))
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
  }

  /// A push's writes, counter, totals, last sync and token use, only if the counter (`$5`) and
  /// the key (`$6`) are as read and the quota holds; then the page as it stood before, without
  /// the records the writes move. The first column is 1 when it wrote, else 0.
  struct Write: PostgresPreparedStatement {
    static let name = "vital_sync_write"
    static let sql = """
      WITH u AS (
        UPDATE users SET seq = $1, stored_bytes = stored_bytes + $2, record_count = record_count + $3,
          last_sync_at = now()
        WHERE id = $4 AND seq = $5 AND sync_key_id IS NOT DISTINCT FROM $6
          AND (NOT $7 OR (($8::int8 IS NULL OR stored_bytes + $2 <= $8) AND ($9::int8 IS NULL OR record_count + $3 <= $9)))
        RETURNING id),
      w AS (
        INSERT INTO records (user_id, dataset, row_id, fields, seq)
        SELECT u.id, k.* FROM u, unnest($10::text[], $11::text[], $12::text[], $13::int8[]) AS k
        ON CONFLICT (user_id, dataset, row_id) DO UPDATE SET fields = EXCLUDED.fields, seq = EXCLUDED.seq),
      t AS (
        UPDATE tokens SET last_used_at = $14 WHERE token_sha256 = $15 AND $16 AND EXISTS (SELECT 1 FROM u))
      SELECT (SELECT count(*) FROM u), p.dataset, p.row_id, CASE WHEN p.before < $17 THEN p.fields END, p.seq
      FROM (SELECT 1) one LEFT JOIN (
        \(PostgresSyncRepository.pageWindow) WHERE user_id = $4 AND seq > $18 AND seq <> ALL($19::int8[])
        ORDER BY seq LIMIT $20) p ON true
      """
    static let bindingDataTypes: [PostgresDataType] = [
      .int8, .int8, .int8, .text, .int8, .text, .bool, .int8, .int8, .textArray, .textArray, .textArray, .int8Array,
      .timestamptz, .text, .bool, .int8, .int8, .int8Array, .int8,
    ]
    typealias Row = (Int64, String?, String?, String?, Int64?)
    let writes: MergedWrites
    let user: String
    let seq: Int64
    let keyID: String?
    let quota: Quota
    let now: Date
    let token: String
    let touchToken: Bool
    let start: Int64
    let bounds: PageBounds

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 20)
      bindings.append(writes.seq)
      bindings.append(writes.grownBytes)
      bindings.append(writes.newRecords)
      bindings.append(user)
      bindings.append(seq)
      bindings.append(keyID)
      bindings.append(writes.grew)
      bindings.append(quota.bytes.map(Int64.init))
      bindings.append(quota.records.map(Int64.init))
      bindings.append(writes.datasets)
      bindings.append(writes.ids)
      bindings.append(writes.fields)
      bindings.append(writes.seqs)
      bindings.append(now)
      bindings.append(token)
      bindings.append(touchToken)
      bindings.append(Int64(bounds.bytes))
      bindings.append(start)
      bindings.append(writes.moved)
      bindings.append(Int64(bounds.count + 1))
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
  }

  /// A pull's note of the token's use (`$3`) and of the account's last sync (`$5`).
  struct Touch: PostgresPreparedStatement {
    static let name = "vital_sync_touch"
    static let sql = """
      WITH t AS (UPDATE tokens SET last_used_at = $1 WHERE token_sha256 = $2 AND $3)
      UPDATE users SET last_sync_at = now() WHERE id = $4 AND $5
      """
    static let bindingDataTypes: [PostgresDataType] = [.timestamptz, .text, .bool, .text, .bool]
    typealias Row = Void
    let now: Date
    let token: String
    let touchToken: Bool
    let user: String
    let touchSync: Bool

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 5)
      bindings.append(now)
      bindings.append(token)
      bindings.append(touchToken)
      bindings.append(user)
      bindings.append(touchSync)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
  }
}
