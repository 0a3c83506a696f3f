import CLICore
import Core
import Health

enum ProfileCache {
  static func clean(_ app: App, _ account: Account) throws {
    try ProfileStore(db: app.db, account: account, now: app.now).removeUnusedBlobs()
  }
}
