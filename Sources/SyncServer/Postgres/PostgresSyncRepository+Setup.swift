import Foundation
import Logging
import PostgresNIO

/// Reaching the database and bringing its schema up to date.
extension PostgresSyncRepository {
  /// A client for `url`; run `client.run()` for as long as the repository is used. The client
  /// logs at `logLevel` and above.
  public static func makeClient(url: String, logLevel: Logger.Level = .warning) throws -> PostgresClient {
    // Each failed connection attempt is logged at info: a database that is down would fill the
    // log; `connect` says so once.
    var logger = Logger(label: "vital-serve.pg")
    logger.logLevel = logLevel
    var configuration = try configuration(url)
    // Only named statements are cached plans: those of `SyncStatements`, whose generic plans are
    // the ones wanted (primary-key and (user, seq) index lookups). Without this PostgreSQL keeps
    // planning them anew on each run whenever it guesses a custom plan cheaper.
    configuration.options.additionalStartupParameters = [("plan_cache_mode", "force_generic_plan")]
    return PostgresClient(configuration: configuration, backgroundLogger: logger)
  }

  /// `postgres://user[:password]@host[:port]/database` (or `postgresql://`); a `host=` query
  /// item naming a folder connects through the Unix socket there.
  static func configuration(_ text: String) throws -> PostgresClient.Configuration {
    guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? ""),
      let user = url.user
    else { throw PostgresURLError() }
    let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : nil
    if let socket = url.queryItems?.first(where: { $0.name == "host" })?.value, socket.hasPrefix("/") {
      return .init(
        unixSocketPath: socket + "/.s.PGSQL.\(url.port ?? 5432)", username: user, password: url.password,
        database: database)
    }
    return .init(
      host: url.host ?? "127.0.0.1", port: url.port ?? 5432, username: user, password: url.password, database: database,
      tls: .disable)
  }

  public struct PostgresURLError: Error, CustomStringConvertible {
    public var description: String { "--postgres takes a URL like postgres://vital@127.0.0.1:5432/vital" }
  }

  /// The repository on `client`, or an error naming the database (never its password) when it
  /// cannot be reached within `timeout`: a client waits for a connection without end.
  public static func connect(client: PostgresClient, url: String, timeout: Duration) async throws
    -> PostgresSyncRepository
  {
    try await withThrowingTaskGroup(of: PostgresSyncRepository?.self) { group in
      group.addTask { try await PostgresSyncRepository(client: client) }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      defer { group.cancelAll() }
      guard let repository = try await group.next() ?? nil else {
        throw Unreachable(place: Self.place(url), seconds: Int(timeout.components.seconds))
      }
      return repository
    }
  }

  public struct Unreachable: Error, CustomStringConvertible {
    let place: String
    let seconds: Int
    public var description: String {
      "cannot reach the PostgreSQL database \(place) within \(seconds) s; is it running, and does the URL name it?"
    }
  }

  /// `host:port/database` of a URL, without the user's password.
  static func place(_ text: String) -> String {
    guard let url = URLComponents(string: text) else { return "(unreadable URL)" }
    return "\(url.host ?? "127.0.0.1"):\(url.port ?? 5432)\(url.path)"
  }

  static let schema = [
    "CREATE TABLE IF NOT EXISTS server_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "INSERT INTO server_meta (key, value) VALUES ('epoch', substr(md5(random()::text), 1, 16)) ON CONFLICT DO NOTHING",
    """
    CREATE TABLE IF NOT EXISTS users (
      id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL, failed_logins INTEGER NOT NULL DEFAULT 0, locked_until TIMESTAMPTZ,
      seq BIGINT NOT NULL DEFAULT 0)
    """,
    """
    CREATE TABLE IF NOT EXISTS tokens (
      token_sha256 TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at TIMESTAMPTZ NOT NULL, last_used_at TIMESTAMPTZ NOT NULL)
    """,
    """
    CREATE TABLE IF NOT EXISTS records (
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, dataset TEXT NOT NULL, row_id TEXT NOT NULL,
      fields TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (user_id, dataset, row_id))
    """,
    "CREATE INDEX IF NOT EXISTS records_user_seq ON records (user_id, seq)",
    "ALTER TABLE users ADD COLUMN IF NOT EXISTS sync_key TEXT",
    "ALTER TABLE users ADD COLUMN IF NOT EXISTS sync_key_id TEXT",
    """
    CREATE TABLE IF NOT EXISTS blobs (
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, sha256 TEXT NOT NULL, data BYTEA NOT NULL,
      PRIMARY KEY (user_id, sha256))
    """,
    // What each account keeps, as running totals (see `countUsage`).
    "ALTER TABLE users ADD COLUMN IF NOT EXISTS stored_bytes BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE users ADD COLUMN IF NOT EXISTS record_count BIGINT NOT NULL DEFAULT 0",
    // What `vital serve admin` shows and does.
    "ALTER TABLE users ADD COLUMN IF NOT EXISTS last_sync_at TIMESTAMPTZ",
    "ALTER TABLE users ADD COLUMN IF NOT EXISTS suspended BOOLEAN NOT NULL DEFAULT false",
    // One-time registration codes, by their SHA-256.
    "CREATE TABLE IF NOT EXISTS invites (code_sha256 TEXT PRIMARY KEY, created_at TIMESTAMPTZ NOT NULL)",
    // Each session names its device (`vital remote devices`).
    "ALTER TABLE tokens ADD COLUMN IF NOT EXISTS device_name TEXT NOT NULL DEFAULT ''",
    // When a blob's bytes came (`collectBlobs`); those stored before count as old.
    "ALTER TABLE blobs ADD COLUMN IF NOT EXISTS created_at TIMESTAMPTZ NOT NULL DEFAULT 'epoch'",
    // Records are stored with their fields sharing clocks: noted for whoever looks (an older
    // server does not, so the servers of one database are upgraded together; docs/server.md).
    "INSERT INTO server_meta (key, value) VALUES ('fields', 'shared_clocks') ON CONFLICT DO NOTHING",
  ]

  /// Counts what each account keeps, once per database (the first start with usage totals).
  static let countUsage = """
    WITH first AS (
      INSERT INTO server_meta (key, value) VALUES ('usage_counted', '1') ON CONFLICT DO NOTHING RETURNING key)
    UPDATE users u SET
      stored_bytes = coalesce((SELECT sum(octet_length(fields)) FROM records r WHERE r.user_id = u.id), 0)
        + coalesce((SELECT sum(octet_length(data)) FROM blobs b WHERE b.user_id = u.id), 0),
      record_count = (SELECT count(*) FROM records r WHERE r.user_id = u.id)
    WHERE EXISTS (SELECT 1 FROM first)
    """
}
