import Replication

extension WireChange {
  /// Checks each value in the clear against its dataset's rule, where `rules` knows the dataset
  /// (a field alone: a change may carry only some fields, so rules over a whole record are each
  /// device's to apply). Sealed values are the devices' to judge; unknown datasets are relayed.
  public func check(rules: [String: [String: FieldRule]]) throws {
    var check = RuleCheck(rules)
    try check.check(self)
  }
}

/// `WireChange.check(rules:)` over the changes of a request, one after another: they mostly
/// name the same fields of the same dataset, whose rules are then looked up once, not once for
/// each field of each change (a first push checks a million fields).
public struct RuleCheck {
  let rules: [String: [String: FieldRule]]
  private var dataset: String?
  private var known: [String: FieldRule]?
  private var names: [String] = []
  private var found: [FieldRule?] = []

  public init(_ rules: [String: [String: FieldRule]]) {
    self.rules = rules
  }

  public mutating func check(_ change: WireChange) throws {
    if change.dataset != dataset {
      (dataset, known, names, found) = (change.dataset, rules[change.dataset], [], [])
    }
    guard let known, !change.isSealed else { return }
    let fields = change.fields
    // The same names as the change before: mostly the very same Strings, compared at once.
    if fields.keys != names {
      names = fields.keys
      found = names.map { $0 == FieldMerge.deleted ? nil : known[$0] }
    }
    for index in found.indices {
      guard let rule = found[index], let reason = rule.fault(fields.values[index].value.databaseValue) else { continue }
      throw ChangeSetError.invalidValue(dataset: change.dataset, id: change.id, field: names[index], reason: reason)
    }
  }
}
