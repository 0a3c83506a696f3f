import Core
import Replication

extension AccountScoped {
  /// Where a store's writes go: its account's synced records, stamped with its clock.
  var replica: Replica { Replica(db: db, accountID: account.id, now: now) }
}
