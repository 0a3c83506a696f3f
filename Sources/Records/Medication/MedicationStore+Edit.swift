import Core
import Foundation
import Replication
import Storage

/// Correcting a medication's schedule: from now on, so the doses before keep their plan.
extension MedicationStore {
  /// The fields `add` sets and `edit` may change; nil leaves one as it is, `.some(nil)` clears
  /// an optional one.
  public struct Changes: Sendable {
    public var name: String?
    public var times: [String]?
    /// `.some(nil)`: every day.
    public var days: [String]??
    public var dose: String??
    public var refillAt: Int??
    /// Counts the stock afresh, as `refill` does.
    public var stock: Int?
    /// A taper, `20 mg:7d,10 mg:7d`; `.some(nil)` ends it.
    public var steps: String??
    public var stepsStart: LocalDate?
    public var thenKeep: Bool?
    /// An IANA zone, or `local`.
    public var zone: String?
    public var asNeeded: Bool?
    public var minInterval: String??
    public var maxPerDay: Int??
    public var minGap: String??
    public var expires: LocalDate??

    public init(
      name: String? = nil, times: [String]? = nil, days: [String]?? = nil, dose: String?? = nil, refillAt: Int?? = nil,
      stock: Int? = nil
    ) {
      self.name = name
      self.times = times
      self.days = days
      self.dose = dose
      self.refillAt = refillAt
      self.stock = stock
    }
  }

  /// Changes the given fields, checked as `add` checks them. A changed schedule, dose or zone
  /// starts a new plan now; the plan it replaces is kept for the doses before (their times,
  /// their dose, and which of them were missed).
  public func edit(_ key: String, _ changes: Changes) throws -> Medication {
    try db.transaction { _ in
      let old = try find(key)
      let m = try apply(changes, to: old, adding: false)
      if m.name.lowercased() != old.name.lowercased(),
        try list().contains(where: { $0.name.lowercased() == m.name.lowercased() })
      {
        throw MedicationError.duplicateName(m.name)
      }
      let before = Self.fields(old)
      let changed = Self.fields(m).filter { before[$0.key] != $0.value }
      if !changed.isEmpty { try replica.write(.medication, id: m.id, changed) }
      return m
    }
  }

  /// `changes` applied to `old` and checked as a whole.
  func apply(_ changes: Changes, to old: Medication, adding: Bool) throws -> Medication {
    var m = old
    if let name = changes.name { m.name = try Self.checkedName(name) }
    if let asNeeded = changes.asNeeded { m.asNeeded = asNeeded }
    if let times = changes.times { m.times = try Self.parseTimes(times) }
    if let days = changes.days { m.days = try days.map(Self.parseDays) }
    if let dose = changes.dose { m.dose = dose?.trimmingCharacters(in: .whitespaces).nilIfEmpty }
    if let steps = changes.steps {
      m.steps = try steps.map(TaperStep.parse)
      if m.steps == nil { m.stepsStart = nil } else if changes.dose == nil { m.dose = nil }
    }
    if let start = changes.stepsStart, m.steps != nil || adding { m.stepsStart = start }
    if m.steps != nil, m.stepsStart == nil || (changes.steps != nil && changes.stepsStart == nil) {
      m.stepsStart = LocalDate(now, in: m.current.calendar(local: calendar))
    }
    if let keep = changes.thenKeep { m.thenKeep = keep }
    if let zone = changes.zone { m.zone = try Self.checkedZone(zone) }
    if let refillAt = changes.refillAt { m.refillAt = refillAt }
    if let stock = changes.stock {
      m.stock = stock
      m.stockSetAt = now
    }
    if let interval = changes.minInterval { m.minInterval = try interval.map { try Self.span($0, "--min-interval") } }
    if let max = changes.maxPerDay { m.maxPerDay = max }
    if let gap = changes.minGap { m.minGap = try gap.map { try Self.span($0, "--min-gap") } }
    if let expires = changes.expires { m.expires = expires }
    if m.asNeeded {
      m.times = []
      m.days = nil
      m.steps = nil
      m.stepsStart = nil
      m.thenKeep = false
      m.minGap = nil
    }
    try check(m, changes, adding: adding)
    if adding, let start = changes.stepsStart {
      // Doses count from the first day given, also when it is past: they are recorded after the fact.
      m.since = start.start(in: m.current.calendar(local: calendar))
      if m.steps == nil { m.stepsStart = nil }
    }
    // A new plan from now on; the old one keeps the doses before.
    if !adding, m.current.withoutSince != old.current.withoutSince || m.asNeeded != old.asNeeded {
      if !old.asNeeded, old.since < now {
        var ended = old.current
        ended.until = now
        m.past.append(ended)
      }
      m.since = now
      m.snooze = nil
    }
    return m
  }

  private func check(_ m: Medication, _ changes: Changes, adding: Bool) throws {
    for n in [m.stock, m.refillAt].compactMap({ $0 }) where !(0...100_000).contains(n) {
      throw MedicationError.badStock
    }
    if m.asNeeded {
      let scheduled =
        changes.times.map { !$0.isEmpty } == true || (changes.steps ?? nil) != nil || (changes.days ?? nil) != nil
      if scheduled {
        throw MedicationError.asNeededHasNoSchedule(m.name)
      }
    } else {
      if m.times.isEmpty { throw MedicationError.noTimes }
      if m.minInterval != nil || m.maxPerDay != nil { throw MedicationError.limitsNeedAsNeeded }
    }
    if let max = m.maxPerDay, !(1...100).contains(max) { throw MedicationError.badMaxPerDay }
    if let interval = m.minInterval, interval > 7 * 86_400 { throw MedicationError.badSpan("--min-interval") }
    if let gap = m.minGap, gap > 86_400 { throw MedicationError.badSpan("--min-gap") }
    if m.steps != nil, changes.dose != nil, changes.dose! != nil { throw MedicationError.stepsAndDose }
    if m.steps == nil, changes.thenKeep != nil || (!adding && changes.stepsStart != nil) {
      throw MedicationError.noSteps
    }
    if adding, let start = changes.stepsStart {
      let today = LocalDate(now, in: m.current.calendar(local: calendar))
      guard m.asNeeded == false, abs(today.days(to: start, in: calendar)) <= 366 else {
        throw MedicationError.badStart
      }
    }
  }

  static func span(_ text: String, _ option: String) throws -> TimeInterval {
    guard let seconds = TimeSpan.seconds(text) else { throw MedicationError.badSpan(option) }
    return seconds
  }

  static func checkedZone(_ text: String) throws -> String? {
    let text = text.trimmingCharacters(in: .whitespaces)
    if text.lowercased() == "local" { return nil }
    guard text.count <= 64, let zone = TimeZone(identifier: text),
      text == "UTC" || text.contains("/")
    else { throw MedicationError.badZone(String(text.prefix(64))) }
    return zone.identifier
  }

  static func checkedName(_ name: String) throws -> String {
    let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw MedicationError.emptyName
    }
    return name
  }

  static func parseTimes(_ times: [String]) throws -> [TimeOfDay] {
    var parsed: [TimeOfDay] = []
    for text in times.flatMap({ $0.split(separator: ",").map(String.init) }) {
      guard let time = TimeOfDay(text.trimmingCharacters(in: .whitespaces)) else {
        throw MedicationError.badTime(text)
      }
      if !parsed.contains(time) { parsed.append(time) }
    }
    return parsed.sorted()
  }

  static func parseDays(_ days: [String]) throws -> [Weekday] {
    try Array(
      Set(
        days.flatMap { $0.split(separator: ",") }.map { text in
          guard let day = Weekday(name: text.trimmingCharacters(in: .whitespaces)) else {
            throw MedicationError.badDay(String(text))
          }
          return day
        })
    ).sorted()
  }
}

extension MedicationPlan {
  /// The plan with its start left out: what an edit compares.
  var withoutSince: MedicationPlan {
    var plan = self
    plan.since = .distantPast
    return plan
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
