import Core
import Foundation
import Records
import Replication
import Storage

/// A record named as its own list names it (`Metformin dose of today 08:00`, `donation Thu 1
/// Oct 10:00, DRK Mitte`), from its values now or, once deleted, the values the undo journal
/// kept: what `vital undo` and the undo page show instead of a kind and an id.
public struct RecordLabel {
  let db: Database
  let accountID: String
  let datasets: [Dataset]
  let human: HumanText
  /// Values the journal kept of records by dataset and id (a delete keeps the record whole):
  /// what names a record created and since deleted, which the store no longer has.
  var kept: [String: [String: DatabaseValue]] = [:]

  public init(db: Database, accountID: String, datasets: [Dataset], human: HumanText) {
    self.db = db
    self.accountID = accountID
    self.datasets = datasets
    self.human = human
  }

  /// The record's synced values as stored now; nil when it is gone.
  func values(_ datasetName: String, id: String) -> [String: DatabaseValue]? {
    guard let dataset = datasets.first(where: { $0.name == datasetName }), !dataset.fields.isEmpty else {
      return nil
    }
    let columns = dataset.fields.map { "\"\($0)\"" }.joined(separator: ", ")
    return try? db.queryFirst(
      "SELECT \(columns) FROM \"\(dataset.table)\" WHERE account_id = ? AND \"\(dataset.key)\" = ?", accountID, id,
      row: { row in Dictionary(uniqueKeysWithValues: dataset.fields.enumerated().map { ($1, row[$0]) }) })
  }

  /// Remembers what `changes` kept of their records, to name those since deleted.
  public mutating func learn(_ changes: [ChangeJournal.Change]) {
    for step in changes.flatMap(\.steps) where !step.before.isEmpty {
      kept[step.dataset + "/" + step.rowID, default: [:]].merge(step.before) { old, _ in old }
    }
  }

  public func label(_ step: ChangeJournal.Step) -> String {
    let stored = values(step.dataset, id: step.rowID)
    let values = (stored ?? [:]).merging(step.before) { now, _ in now }
      .merging(kept[step.dataset + "/" + step.rowID] ?? [:]) { now, _ in now }
    return label(step.dataset, id: step.rowID, values) ?? "\(Self.kind(step.dataset)) \(Self.shortID(step.rowID))"
  }

  func label(_ dataset: String, id: String, _ v: [String: DatabaseValue]) -> String? {
    func text(_ key: String) -> String? {
      if case .text(let s)? = v[key], !s.isEmpty { return s }
      return nil
    }
    func number(_ key: String) -> Double? {
      switch v[key] {
      case .integer(let n)?: return Double(n)
      case .real(let d)?: return d
      default: return nil
      }
    }
    func time(_ key: String) -> String? { text(key).flatMap { ISO8601.date(from: $0) }.map(human.time) }
    func day(_ key: String) -> String? { text(key).flatMap { LocalDate($0) }.map(human.day) }
    switch dataset {
    case "donation":
      guard let when = time("completed_at") ?? time("scheduled_at") else { return nil }
      let what = text("status") == "scheduled" ? "appointment" : "donation"
      return "\(what) \(when)" + (text("place").map { ", \($0)" } ?? "")
    case "dose":
      if let name = text("medication"), let when = time("scheduled_at") { return "\(name) dose of \(when)" }
      // A dose gone (undone, deleted) is named by its id: its medication and scheduled instant.
      guard let at = id.lastIndex(of: "@"), let seconds = Double(id[id.index(after: at)...]) else { return nil }
      let medication = values("medication", id: String(id[..<at]))?["name"]
      let name: String
      if case .text(let n)? = medication { name = n } else { name = "a medication's" }
      return "\(name) dose of \(human.time(Date(timeIntervalSince1970: seconds)))"
    case "medication": return text("name").map { "medication \($0)" }
    case "goal":
      guard let kind = text("type").flatMap(Goal.Kind.init(name:)), let target = number("target") else { return nil }
      return "goal \(kind.measure.text(target))" + (kind == .steps ? "" : " \(kind.name)")
    case "period": return day("start").map { "period from \($0)" }
    case "cycle_note": return LocalDate(id).map { "note of \(human.day($0))" }
    case "cycle_pause": return day("start").map { "pause from \($0)" }
    case "health_sample":
      guard let type = text("type"), let value = number("value") else { return nil }
      let measure = HealthType.manual.first { $0.type == type }.flatMap { HealthTotals.Measure(name: $0.name) }
      let amount = measure.map { $0.text(value) } ?? "\(type) \(value)"
      return "sample \(amount)" + (time("start").map { " at \($0)" } ?? "")
    case "area_watch": return text("label").map { "watched place \($0)" }
    case "questionnaire": return time("taken_at").map { "questionnaire of \($0)" }
    case "profile": return "profile"
    case "blob": return "avatar"
    case "health_source": return text("name").map { "source \($0)" }
    default: return nil
    }
  }

  public static func kind(_ dataset: String) -> String { dataset.replacingOccurrences(of: "_", with: " ") }

  /// A UUID's first 8 characters; other ids (a profile's, a catalogue goal's) whole up to 24.
  static func shortID(_ id: String) -> String {
    let uuid = id.count == 36 && id.allSatisfy { $0.isHexDigit || $0 == "-" }
    return String(id.prefix(uuid ? 8 : 24))
  }

  /// `edit donation Thu 1 Oct 10:00, DRK Mitte (place, notes)`, `create Metformin dose of
  /// today 08:00`, or a count when a change touched many records.
  public func summary(_ change: ChangeJournal.Change) -> String {
    let steps = change.steps
    guard let first = steps.first else { return "nothing" }
    if first.action == .import || first.action == .withdraw {
      let kinds = Set(steps.map { Self.kind($0.dataset) }).sorted().joined(separator: ", ")
      return "\(first.action == .import ? "import" : "withdraw import") of \(kinds)"
    }
    let parts = steps.prefix(3).map { step -> String in
      let fields = step.action == .edit ? " (\(step.fields.joined(separator: ", ")))" : ""
      return "\(step.action.rawValue) \(label(step))\(fields)"
    }
    return parts.joined(separator: "; ") + (steps.count > 3 ? "; and \(steps.count - 3) more" : "")
  }
}
