/// One record as a person reads it: labelled values in order, what `show` prints as a table
/// and a page draws as a details list. Empty figures are left out; empty text reads `-`.
public struct RecordSheet: Sendable, Equatable {
  public struct Row: Sendable, Equatable {
    public let label: String
    public let value: String
  }

  public private(set) var rows: [Row] = []

  public init() {}

  public mutating func add(_ label: String, _ value: String?) {
    rows.append(Row(label: label, value: value.flatMap { $0.isEmpty ? nil : $0 } ?? "-"))
  }

  /// A figure, left out when it was not measured.
  public mutating func figure(_ label: String, _ value: String?) {
    if let value { rows.append(Row(label: label, value: value)) }
  }
}
