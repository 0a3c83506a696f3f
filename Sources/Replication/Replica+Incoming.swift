import Foundation
import Storage

extension Replica {
  /// One record as it came from another replica: the fields its dataset keeps, by their place
  /// in `dataset.fields` (a first sync reads every field of every record by place; looked up by
  /// name, each was hashed three times on its way in), and its deletion state.
  public struct Incoming: Sendable {
    public typealias Field = (value: DatabaseValue, hlc: HLC)
    public let dataset: Dataset
    public let id: String
    /// Each field of `dataset.fields` that came, at its place; nil where it did not.
    public let slots: [Field?]
    /// The record's `FieldMerge.deleted` field, when it came.
    public let deletion: Field?
    /// Local columns that come with it (a blob's bytes).
    public let untracked: [String: DatabaseValue]
    /// The newest clock among its fields: found where the record is made (a page's reader, on
    /// another core), not where it is written. Found there, it was 8 % of the writing core's
    /// instructions in a first sync of 100,000 records.
    public let newest: HLC?
    /// The clock every field that came has, when they share one (a record written whole): found
    /// with `newest`, so that the writing core writes such a record's clocks as one without
    /// comparing them.
    public let oneClock: HLC?

    public init(
      _ dataset: Dataset, id: String, slots: [Field?], deletion: Field?, untracked: [String: DatabaseValue] = [:]
    ) {
      precondition(slots.count == dataset.fields.count, "one slot per field of \(dataset.name)")
      self.dataset = dataset
      self.id = id
      self.slots = slots
      self.deletion = deletion
      self.untracked = untracked
      var newest = deletion?.hlc
      var first: HLC?
      var shared = true
      for index in slots.indices {
        guard let hlc = slots[index]?.hlc else { continue }
        if let first {
          shared = shared && hlc == first
        } else {
          first = hlc
        }
        if newest.map({ hlc > $0 }) ?? true { newest = hlc }
      }
      self.newest = newest
      self.oneClock = shared ? first : nil
    }

    /// From fields by name; those `dataset` does not keep are left out.
    public init(_ dataset: Dataset, id: String, _ fields: [String: Field], untracked: [String: DatabaseValue] = [:]) {
      var slots = [Field?](repeating: nil, count: dataset.fields.count)
      for (name, field) in fields {
        if let index = dataset.fieldIndex[name] { slots[index] = field }
      }
      self.init(dataset, id: id, slots: slots, deletion: fields[FieldMerge.deleted], untracked: untracked)
    }

    /// The same record with local columns.
    public func with(untracked: [String: DatabaseValue]) -> Incoming {
      Incoming(dataset, id: id, slots: slots, deletion: deletion, untracked: untracked)
    }

    /// Its fields by name, as `merge` takes them.
    public var fields: [String: Field] {
      var fields: [String: Field] = [:]
      fields.reserveCapacity(slots.count + 1)
      for (index, slot) in slots.enumerated() { if let slot { fields[dataset.fields[index]] = slot } }
      if let deletion { fields[FieldMerge.deleted] = deletion }
      return fields
    }

    /// The device that wrote its first field in the dataset's order (its deletion when it has no
    /// field): the one a refusal names when no one field is at fault.
    var writer: String? {
      (slots.lazy.compactMap { $0 }.first ?? deletion)?.hlc.node
    }

    /// How it was checked as a row new here: worked out where a page is read (`checkedAsNew`), on
    /// another core than the one that writes pages, so that writing a first sync's records does
    /// not wait for it; else when it is written.
    public enum NewRowCheck: Sendable {
      case notDone
      case passed
      case refused(Dataset.Fault)
    }

    public private(set) var asNew: NewRowCheck = .notDone

    /// The same record, checked as a row new here (`Dataset.fault(inOrder:)` over the values
    /// such a row would hold: NULL where a field did not come).
    public consuming func checkedAsNew() -> Incoming {
      asNew = faultAsNew.map(NewRowCheck.refused) ?? .passed
      return self
    }

    /// The value of the field at `index` as a new row holds it; nil when it did not come.
    func newRowValue(_ index: Int) -> DatabaseValue? {
      slots[index].map { dataset.stored(at: index, $0.value) }
    }

    /// Why a row new here would be refused, or nil: worked out ahead when it was.
    var faultAsNew: Dataset.Fault? {
      switch asNew {
      case .passed: return nil
      case .refused(let fault): return fault
      case .notDone: return dataset.fault(valueAt: { newRowValue($0) ?? .null })
      }
    }

    /// The device that wrote `field`; without it (or with no field named), `writer`.
    func node(of field: String?) -> String {
      if let field, let index = dataset.fieldIndex[field], let slot = slots[index] { return slot.hlc.node }
      return writer!
    }

    /// Its fields by name as a new row holds them, for the careful way (`merge`).
    var newRowFields: [String: Field] {
      var fields: [String: Field] = [:]
      for (index, slot) in slots.enumerated() {
        if let slot { fields[dataset.fields[index]] = (newRowValue(index)!, slot.hlc) }
      }
      return fields
    }
  }
}
