import Core
import Foundation
import Replication
import Storage

/// Reads a FHIR bundle that Vital wrote (docs/fhir.md) back into an account: the patient's
/// details, donations with their measurements, periods, medications and the doses taken or
/// skipped. Records are found again by the Vital id each resource carries in `identifier`, so
/// importing a bundle twice, or into the home it came from, adds nothing. Daily totals are left
/// out: they are sums of health samples, which the bundle does not hold.
public struct FHIRImport {
  let db: Database
  let account: Account
  let now: Date

  public init(db: Database, account: Account, now: Date) {
    self.db = db
    self.account = account
    self.now = now
  }

  typealias Resource = [String: Any]

  /// A parsed FHIR bundle, or nil when `data` is not JSON of one.
  public struct Bundle: @unchecked Sendable {
    let object: [String: Any]

    public init?(_ data: Data) {
      guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        object["resourceType"] as? String == "Bundle"
      else { return nil }
      self.object = object
    }
  }

  /// All or nothing: one transaction; a resource Vital cannot read refuses the whole bundle.
  public func run(_ parsed: Bundle) throws -> RecordArchive.ImportSummary {
    let bundle = parsed.object
    guard let entries = bundle["entry"] as? [Resource], !entries.isEmpty else { throw FHIRImportError.noEntries }
    var resources: [(url: String?, resource: Resource, index: Int)] = []
    for (index, entry) in entries.enumerated() {
      guard let resource = entry["resource"] as? Resource, resource["resourceType"] is String else {
        throw FHIRImportError.entry(index, "has no resource")
      }
      resources.append((entry["fullUrl"] as? String, resource, index))
    }
    let replica = Replica(db: db, accountID: account.id, now: now)
    return try db.transaction { _ in
      var summary = RecordArchive.ImportSummary()
      var reader = FHIRReader(resources: resources, now: now)
      if let profile = try reader.profile() {
        var merge = try RecordMerge(.profile, columns: profile.columns, replica: replica, oneByOne: true)
        try merge.put(id: ProfileStore(db: db, account: account, now: now).profileID, profile.values)
        summary.parts.append(merge.part)
      }
      for (dataset, records) in try reader.records() {
        guard let first = records.first else { continue }
        var merge = try RecordMerge(dataset, columns: first.columns, replica: replica)
        for record in records { try merge.put(id: record.id, record.values, rest: record.rest) }
        try merge.finish()
        summary.parts.append(merge.part)
      }
      summary.skipped = reader.skipped
      return summary
    }
  }
}

public enum FHIRImportError: Error, CustomStringConvertible, Equatable {
  case noEntries
  case entry(Int, String)

  public var description: String {
    switch self {
    case .noEntries:
      return "this FHIR bundle has no entries; nothing was imported"
    case .entry(let index, let what):
      return "bundle entry \(index): \(what); nothing was imported"
    }
  }
}
