import Replication
import Schema

/// What `vital serve` checks of values in the clear: the rules of Vital's own datasets, field by
/// field, the same each device applies (a newer Vital's datasets pass through unchecked).
public enum ServerRules {
  public static let known: [String: [String: FieldRule]] = Dictionary(
    uniqueKeysWithValues: VitalSchema.datasets.map { ($0.name, $0.rules) })
}
