import Core
import Foundation
import Replication
import Storage

/// One account's lab results and measurements by hand (docs/labs.md).
public struct LabStore: AccountScoped {
  public let scope: AccountScope
  public let catalogue: LabCatalogue

  public init(_ scope: AccountScope) {
    self.scope = scope
    catalogue = .shipped
  }

  static let lookup = RecordLookup(kind: "lab result", listCommand: "vital labs list", table: "lab_result")
  static let columns = results.list(LabResult.shape.columns.map(\.name))

  @discardableResult
  public func add(_ entry: LabEntry, force: Bool = false) throws -> LabResult {
    let result = try entry.result(id: UUID().uuidString.lowercased(), catalogue: catalogue, force: force)
    try notAhead(result.at)
    try replica.write(.labResult, id: result.id, LabResult.shape.fields(result, LabResult.synced))
    return result
  }

  /// Results of one test or all, from `from` and before `before`, newest first: those added,
  /// and those measured at `donations` (`DonationStore.measured` over the same window).
  public func list(
    test: String? = nil, from: Date? = nil, before: Date? = nil, donations: [Donation] = []
  ) throws -> [LabResult] {
    let test = try test.map { try catalogue.require($0).id }
    let measured = donations.flatMap { Self.results(of: $0) }.filter { test == nil || $0.test == test }
    return (try added(test: test, from: from, before: before) + measured).sorted { ($0.at, $1.id) > ($1.at, $0.id) }
  }

  /// The results kept as lab results (not a donation's), newest first.
  public func added(test: String? = nil, from: Date? = nil, before: Date? = nil) throws -> [LabResult] {
    var sql = "SELECT \(Self.columns) FROM lab_result WHERE account_id = ? AND at >= ? AND at < ?"
    var arguments: [(any DatabaseValueConvertible)?] = [
      account.id, from.map(ISO8601.string(from:)) ?? "", before.map(ISO8601.string(from:)) ?? "~",
    ]
    if let test {
      sql += " AND test = ?"
      arguments.append(test)
    }
    return try db.query(sql + " ORDER BY at DESC, id", arguments: arguments) { try? LabResult.shape.read($0) }
      .compactMap { $0 }
  }

  /// A result added, by id or unambiguous prefix (a donation's is `DonationStore.find`'s).
  public func find(_ idOrPrefix: String) throws -> LabResult {
    let id = try Self.lookup.id(idOrPrefix, account: account.id, in: db)
    guard
      let result = try db.queryFirst(
        "SELECT \(Self.columns) FROM lab_result WHERE account_id = ? AND id = ?", account.id, id,
        row: { try LabResult.shape.read($0) }) ?? nil
    else { throw LabError.notFound(String(idOrPrefix.prefix(40))) }
    return result
  }

  /// Writes `entry` over the result `idOrPrefix`: its test, value and unit, and time; a
  /// laboratory, range or note the entry leaves out stays as it was, and so does the donation.
  @discardableResult
  public func edit(_ idOrPrefix: String, to entry: LabEntry, force: Bool = false) throws -> LabResult {
    if let reference = donationReference(idOrPrefix) {
      throw LabError.partOfDonation(reference.donation, option: reference.option, value: entry.value)
    }
    let old = try find(idOrPrefix)
    var new = try entry.result(id: old.id, catalogue: catalogue, force: force)
    try notAhead(new.at)
    if entry.lab == nil { new.lab = old.lab }
    if entry.note == nil { new.note = old.note }
    if entry.range == nil { (new.rangeLow, new.rangeHigh) = (old.rangeLow, old.rangeHigh) }
    new.donationID = old.donationID
    let fields = LabResult.shape.changes(from: old, to: new, LabResult.synced)
    if !fields.isEmpty { try replica.write(.labResult, id: old.id, fields) }
    return new
  }

  /// A result is kept once measured: a time ahead of now (a minute's grace for clocks) is a typo.
  func notAhead(_ at: Date) throws {
    guard at <= now.addingTimeInterval(60) else {
      throw LabError.future(LocalDate(at, in: calendar).description)
    }
  }

  @discardableResult
  public func delete(_ idOrPrefix: String) throws -> LabResult {
    if let reference = donationReference(idOrPrefix) {
      throw LabError.partOfDonation(reference.donation, option: reference.option, value: "''")
    }
    let result = try find(idOrPrefix)
    try replica.delete(.labResult, id: result.id)
    return result
  }
}
