import Foundation
import Storage

/// What a store works in: one account's records in one database, at one moment, in the user's
/// calendar. Every store is made from one (`AccountScoped`).
public struct AccountScope {
  public let db: Database
  public let account: Account
  public let now: Date
  public let calendar: Calendar
  /// The day `now` falls on in the user's calendar, worked out once: imports compare every row
  /// with it.
  public let today: LocalDate

  public init(db: Database, account: Account, now: Date, calendar: Calendar = AccountScope.utc) {
    self.db = db
    self.account = account
    self.now = now
    self.calendar = calendar
    today = LocalDate(now, in: calendar)
  }

  /// For the stores that reckon no local days (districts, the profile, FHIR).
  public static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()
}

/// A store over one `AccountScope`: its database, account, clock and calendar come from there.
public protocol AccountScoped {
  var scope: AccountScope { get }
  init(_ scope: AccountScope)
}

extension AccountScoped {
  public init(db: Database, account: Account, now: Date, calendar: Calendar = AccountScope.utc) {
    self.init(AccountScope(db: db, account: account, now: now, calendar: calendar))
  }

  public var db: Database { scope.db }
  public var account: Account { scope.account }
  public var now: Date { scope.now }
  public var calendar: Calendar { scope.calendar }
}
