import Core
import Foundation
import Replication
import Storage

/// Single samples: listed by day, shown, and corrected when typed by hand. Imported ones are
/// read-only (the Health app is where they are fixed) but may be deleted, and a deleted one
/// stays deleted when the export is imported again.
extension HealthStore {
  public struct Sample: Equatable, Sendable {
    public var id: String
    public var type: String
    /// The amount; nil when what is stored is not a finite number (text, or a value an older
    /// Vital let in): shown as invalid, never counted.
    public var value: Double?
    /// What is stored when it is not a number: a blood pressure's `128/82`, a sleep sample's
    /// state, or text some other program wrote.
    public var text: String?
    public var unit: String?
    public var source: String
    public var start: Date
    public var end: Date

    /// The short name `health add` takes for this type, if it is one of those.
    public var name: String? { HealthType.manual.first { $0.type == type }?.name }
    public var isManual: Bool { source == HealthStore.manualSource }

    /// The value column as stored: the number, else the text.
    package var stored: DatabaseValue {
      get { value.map(HealthType.stored) ?? text.map(DatabaseValue.text) ?? .null }
      set {
        value = HealthStore.number(newValue)
        text = if value == nil, case .text(let t) = newValue { t } else { nil }
      }
    }
  }

  public enum SampleError: Error, Equatable, CustomStringConvertible {
    case importedIsReadOnly(source: String)

    public var description: String {
      switch self {
      case .importedIsReadOnly(let source):
        return
          "this sample was imported from \(source.prefix(60)); imported samples are read-only: delete it (it stays deleted when you import again) or correct it in the Health app"
      }
    }
  }

  static let sampleLookup = RecordLookup(kind: "sample", listCommand: "vital health list", table: "health_sample")
  static let sampleColumns = samples.list(Sample.shape.columns.map(\.name))

  /// The samples starting on a local day, of one type or all, in time order. Sleep is listed as
  /// `health sleep` counts it: the samples of the night that ended that day (its bedtime the
  /// evening before) and of its naps.
  public func samples(on day: LocalDate, type: String? = nil) throws -> [Sample] {
    if type == SleepState.type { return try sleepSamples(on: day) }
    let from = day.start(in: calendar)
    let to = day.adding(days: 1, in: calendar).start(in: calendar)
    let types = type.map { [$0] } ?? (HealthType.manual.map(\.type) + [HealthType.menstrualFlow])
    var all: [Sample] = []
    for t in types {
      all += try db.query(
        "SELECT \(Self.sampleColumns) FROM health_sample WHERE account_id = ? AND type = ? AND start >= ? AND start < ?",
        account.id, t, from, to, row: Sample.shape.record)
    }
    return all.sorted { ($0.start, $0.type, $0.id) < ($1.start, $1.type, $1.id) }
  }

  /// The sleep samples over the night that ended on `day` and its naps: from the first bedtime
  /// to the last waking, samples that began before it included. A day without a night lists
  /// the sleep samples starting on it.
  private func sleepSamples(on day: LocalDate) throws -> [Sample] {
    var from = day.start(in: calendar)
    var to = day.adding(days: 1, in: calendar).start(in: calendar)
    if let night = try sleepNights(from: from, through: day).first(where: { $0.day == day }) {
      from = ([night.bedtime] + night.naps.map(\.start)).min()!
      to = ([night.wake] + night.naps.map(\.end)).max()!
    }
    // No sample lasts a day, so one that overlaps begins at most a day before.
    return try db.query(
      """
      SELECT \(Self.sampleColumns) FROM health_sample
      WHERE account_id = ? AND type = ? AND start >= ? AND start < ? AND "end" > ?
      """, account.id, SleepState.type, from.addingTimeInterval(-86_400), to, from, row: Sample.shape.record
    ).sorted { ($0.start, $0.id) < ($1.start, $1.id) }
  }

  public func sample(_ idOrPrefix: String) throws -> Sample {
    let id = try Self.sampleLookup.id(idOrPrefix, account: account.id, in: db)
    guard
      let sample = try db.queryFirst(
        "SELECT \(Self.sampleColumns) FROM health_sample WHERE account_id = ? AND id = ?", account.id, id,
        row: Sample.shape.record)
    else { throw RecordLookup.Failure.notFound(kind: "sample", id: idOrPrefix, listCommand: "vital health list") }
    return sample
  }

  /// Corrects a sample typed by hand: its value or its time.
  public func editSample(_ idOrPrefix: String, value: Double?, at: Date?) throws -> Sample {
    let old = try sample(idOrPrefix)
    guard old.isManual else { throw SampleError.importedIsReadOnly(source: old.source) }
    var new = old
    if let value, value != old.value {
      guard value.isFinite, (0...1_000_000).contains(value) else { throw Failure.badValue }
      new.value = value
    }
    if let at, at != old.start {
      guard at <= now else { throw Failure.inTheFuture }
      (new.start, new.end) = (at, at)
    }
    let fields = Sample.shape.changes(from: old, to: new, Sample.synced)
    if !fields.isEmpty { try replica.write(.healthSample, id: old.id, fields) }
    return try sample(old.id)
  }

  /// Deletes one sample, typed or imported; importing the export again does not bring it back.
  @discardableResult
  public func deleteSample(_ idOrPrefix: String) throws -> Sample {
    let sample = try sample(idOrPrefix)
    try replica.delete(.healthSample, id: sample.id)
    return sample
  }

  /// A stored value as a number when it is a finite one, and within what any sample holds.
  static func number(_ value: DatabaseValue) -> Double? {
    switch value {
    case .integer(let n): return Double(n)
    case .real(let d) where d.isFinite && abs(d) <= 1e12: return d
    default: return nil
    }
  }

}
