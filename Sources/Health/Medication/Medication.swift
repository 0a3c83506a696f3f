import Foundation

/// A time of day on a schedule, `HH:MM` in the local zone.
public struct TimeOfDay: Comparable, Hashable, Sendable, CustomStringConvertible {
  public let hour: Int
  public let minute: Int

  public init?(_ text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
    else { return nil }
    (hour, minute) = (h, m)
  }

  public var description: String { String(format: "%02d:%02d", hour, minute) }

  public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { (a.hour, a.minute) < (b.hour, b.minute) }
}

/// A day of the week, as schedules name them.
public enum Weekday: Int, CaseIterable, Comparable, Sendable {
  case mon = 1
  case tue, wed, thu, fri, sat, sun

  public init?(name: String) {
    let full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    let key = name.lowercased()
    guard let day = Self.allCases.first(where: { $0.name == key || full[$0.rawValue - 1] == key }) else { return nil }
    self = day
  }

  public var name: String { "\(self)" }

  public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// A medication and when it is taken.
public struct Medication: Equatable, Sendable {
  public let id: String
  public var name: String
  public var times: [TimeOfDay]
  /// nil: every day.
  public var days: [Weekday]?
  public var dose: String?
  /// The stock counted at `stockSetAt`; doses taken since then are subtracted.
  public var stock: Int?
  public var stockSetAt: Date?
  public var refillAt: Int?
  /// When the schedule starts: no dose before this counts.
  public var since: Date

  public init(
    id: String = UUID().uuidString.lowercased(), name: String, times: [TimeOfDay], days: [Weekday]?, dose: String?,
    stock: Int?, stockSetAt: Date?, refillAt: Int?, since: Date
  ) {
    self.id = id
    self.name = name
    self.times = times
    self.days = days
    self.dose = dose
    self.stock = stock
    self.stockSetAt = stockSetAt
    self.refillAt = refillAt
    self.since = since
  }

  /// The stock level that calls for a refill: as set, else three days of doses.
  public var refillThreshold: Int { refillAt ?? 3 * times.count }
}

/// What happened to a scheduled dose.
public enum DoseStatus: String, Sendable {
  case taken, skipped, missed, pending
}

/// A scheduled dose and what became of it.
public struct Dose: Equatable, Sendable {
  public let medicationID: String
  public let medication: String
  public let dose: String?
  public let scheduledAt: Date
  public let status: DoseStatus
  /// When it was taken or skipped.
  public let at: Date?

  /// The same dose recorded on two devices is one record: its id is its medication and time.
  static func id(medication: String, scheduledAt: Date) -> String {
    "\(medication)@\(Int64(scheduledAt.timeIntervalSince1970))"
  }
}
