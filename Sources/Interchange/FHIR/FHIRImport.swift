import Core
import Foundation
import Records
import Replication
import Storage

/// Reads a FHIR bundle that Vital wrote (docs/fhir.md) back into an account: the patient's
/// details, donations with their measurements, periods, medications and the doses taken or
/// skipped. Records are found again by the Vital id each resource carries in `identifier`, so
/// importing a bundle twice, or into the home it came from, adds nothing. Daily totals are left
/// out: they are sums of health samples, which the bundle does not hold.
///
/// The bundle is streamed twice, one entry at a time: the first pass notes what resources refer
/// to (measurements of a donation, medication names), the second writes the records. Memory is
/// that of one entry and those notes, whatever the bundle's size.
public struct FHIRImport: AccountScoped {

  /// The largest entry read: a resource Vital writes is a few kilobytes.
  static let maxEntry = 16 << 20

  /// Opens the bundle for one pass: a reader of up to n bytes a call, none at the end.
  public typealias Open = () throws -> (Int) throws -> [UInt8]

  public let scope: AccountScope

  public init(_ scope: AccountScope) { self.scope = scope }

  typealias Resource = [String: Any]

  /// All or nothing: one transaction; a resource Vital cannot read refuses the whole bundle.
  public func run(_ open: Open) throws -> RecordArchive.ImportSummary {
    var index = FHIRIndex()
    let count = try Self.entries(open) { n, url, resource in try index.note(url, resource, n) }
    guard count > 0 else { throw FHIRImportError.noEntries }
    let replica = Replica(db: db, accountID: account.id, now: now)
    return try db.transaction { _ in
      var summary = RecordArchive.ImportSummary()
      if let profile = index.profile {
        var merge = try RecordMerge(.profile, columns: profile.columns, replica: replica, oneByOne: true)
        try merge.put(id: ProfileStore(db: db, account: account, now: now).profileID, profile.values)
        summary.parts.append(merge.part)
      }
      var reader = FHIRReader(index: index, now: now, calendar: calendar)
      var merges: [String: RecordMerge] = [:]
      _ = try Self.entries(open) { n, url, resource in
        guard let (dataset, record) = try reader.record(url, resource, n) else { return }
        if merges[dataset.name] == nil {
          merges[dataset.name] = try RecordMerge(dataset, columns: record.columns, replica: replica)
        }
        try merges[dataset.name]!.put(id: record.id, record.values, rest: record.rest)
      }
      // In the order a device applies them.
      for dataset in [Dataset.donation, .period, .medication, .dose, .labResult] {
        guard var merge = merges[dataset.name] else { continue }
        try merge.finish()
        summary.parts.append(merge.part)
      }
      summary.skipped = count - reader.consumed.count
      return summary
    }
  }

  /// Calls `body` with each entry of the bundle (its number, `fullUrl` and resource) and returns
  /// how many there are.
  static func entries(_ open: Open, _ body: (Int, String?, Resource) throws -> Void) throws -> Int {
    var stream = JSONStream(maxValue: maxEntry, read: try open())
    var count = 0
    var resourceType: String?
    do {
      guard try stream.peekSignificant() == UInt8(ascii: "{") else { throw FHIRImportError.notABundle }
      try stream.members { stream, key in
        switch key {
        case "resourceType":
          resourceType =
            try JSONSerialization.jsonObject(with: Data(stream.raw()), options: .fragmentsAllowed) as? String
        case "entry":
          try stream.elements { stream in
            let n = count
            let bytes = try stream.raw()
            guard let parsed = try? JSONSerialization.jsonObject(with: Data(bytes)) else {
              throw FHIRImportError.entry(n, "is not JSON Vital can read (is a number too large for a double?)")
            }
            guard let entry = parsed as? Resource, let resource = entry["resource"] as? Resource,
              resource["resourceType"] is String
            else { throw FHIRImportError.entry(n, "has no resource") }
            try body(n, entry["fullUrl"] as? String, resource)
            count += 1
          }
        default: try stream.skip()
        }
      }
      try stream.end()
    } catch JSONStream.Failure.malformed(let at) {
      throw FHIRImportError.notJSON(at: at)
    } catch JSONStream.Failure.tooLarge {
      throw FHIRImportError.entry(count, "it is over \(maxEntry >> 20) MiB")
    }
    guard resourceType == "Bundle" else { throw FHIRImportError.notABundle }
    return count
  }
}

public enum FHIRImportError: Error, CustomStringConvertible, Equatable {
  case noEntries
  case notABundle
  case notJSON(at: Int)
  case entry(Int, String)

  public var description: String {
    switch self {
    case .noEntries:
      return "this FHIR bundle has no entries; nothing was imported"
    case .notABundle:
      return
        "this is neither a Vital export nor a FHIR bundle (a JSON object with \"resourceType\": \"Bundle\"); nothing was imported"
    case .notJSON(let at):
      return "the FHIR bundle is not JSON at byte \(at); nothing was imported"
    case .entry(let index, let what):
      return "bundle entry \(index): \(what); nothing was imported"
    }
  }
}
