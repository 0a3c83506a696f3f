/// Rows of text in aligned columns under a header, as `git` and `ls -l` print them. The last
/// column is not padded, so long notes do not drag trailing blanks.
public struct TextTable {
  public let header: [String]
  public var rows: [[String]] = []

  public init(_ header: [String]) {
    self.header = header
  }

  public mutating func add(_ row: [String]) {
    precondition(row.count == header.count, "one cell per column")
    rows.append(row)
  }

  public var text: String {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { row in
      row.enumerated().map { column, cell in
        column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
      }.joined(separator: "  ").trimmingTrailingBlanks()
    }.joined(separator: "\n")
  }
}

extension String {
  fileprivate func trimmingTrailingBlanks() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
