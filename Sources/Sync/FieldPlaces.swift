import Foundation
import Replication

/// Where the fields a change names sit in its dataset (`Dataset.place(of:)`), kept from one
/// change to the next: the records of a page name the same fields, mostly as the very same
/// Strings (`WireJSON` reads a name that repeats as the String before), so they are looked up
/// once for the page, not hashed for each field of each record. The clock read last is kept
/// with them.
public struct FieldPlaces {
  var clock = LastClock()
  private var dataset: String?
  private var names: [String] = []
  private var places: [Int?] = []

  public init() {}

  /// The place of each of `names` in `known`, nil for a field it does not keep.
  mutating func places(of names: [String], in known: Dataset) -> [Int?] {
    if known.name != dataset || names != self.names {
      (dataset, self.names, places) = (known.name, names, names.map(known.place(of:)))
    }
    return places
  }
}
