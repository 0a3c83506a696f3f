import Storage

/// Finds one record of an account by its id or by the first characters of it, as git takes
/// hashes: the whole id always matches; a prefix of at least four characters matches when only
/// one id starts with it.
public struct RecordLookup: Sendable {
  /// What the user calls these records (`donation`), and where to see them (`vital donor history`).
  public let kind: String
  public let listCommand: String
  let table: String
  let key: String

  public init(kind: String, listCommand: String, table: String, key: String = "id") {
    self.kind = kind
    self.listCommand = listCommand
    self.table = table
    self.key = key
  }

  public static let shortest = 4

  public enum Failure: Error, Equatable, CustomStringConvertible {
    case notFound(kind: String, id: String, listCommand: String)
    case ambiguous(kind: String, prefix: String, matches: [String])

    public var description: String {
      switch self {
      case .notFound(let kind, let id, let list):
        return "no \(kind) with id '\(id.prefix(60))'; '\(list)' shows the ids"
      case .ambiguous(let kind, let prefix, let matches):
        let shown = matches.prefix(3).joined(separator: ", ") + (matches.count > 3 ? ", ..." : "")
        // The lookup reads 11 at most: more than 10 is all it knows.
        let count = matches.count > 10 ? "more than 10" : String(matches.count)
        return "'\(prefix)' is the start of \(count) \(kind) ids (\(shown)); give more characters"
      }
    }
  }

  /// The full id that `idOrPrefix` names among `account`'s rows.
  public func id(_ idOrPrefix: String, account: String, in db: Database) throws -> String {
    let text = idOrPrefix.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { throw Failure.notFound(kind: kind, id: idOrPrefix, listCommand: listCommand) }
    if try db.scalar(
      Int.self, "SELECT EXISTS (SELECT 1 FROM \(table) WHERE account_id = ? AND \(key) = ?)", account, text) == 1
    {
      return text
    }
    guard text.count >= Self.shortest else {
      throw Failure.notFound(kind: kind, id: idOrPrefix, listCommand: listCommand)
    }
    // A range, so the key's index finds the prefix among millions of samples. Ids are
    // lower-case where they are hex: a prefix typed in capitals matches too.
    var matches: [String] = []
    for prefix in Set([text, text.lowercased()]).sorted() {
      matches += try db.query(
        "SELECT \(key) FROM \(table) WHERE account_id = ? AND \(key) >= ? AND \(key) < ? ORDER BY \(key) LIMIT 11",
        account, prefix, prefix + "\u{10FFFF}"
      ) { try $0.get(0, as: String.self) }
    }
    matches = Array(Set(matches)).sorted()
    switch matches.count {
    case 0: throw Failure.notFound(kind: kind, id: idOrPrefix, listCommand: listCommand)
    case 1: return matches[0]
    default:
      throw Failure.ambiguous(
        kind: kind, prefix: text,
        matches: {
          // Each as far as it differs from the others, so that no two read alike.
          let short = ShortID.prefixes(matches, minimum: text.count + 4)
          return matches.map { short[$0] ?? $0 }
        }())
    }
  }
}

/// Shortest prefixes that tell a set of ids apart (at least `RecordLookup.shortest`
/// characters, or the whole id), for lists people copy ids from.
public enum ShortID {
  public static func prefixes(_ ids: [String], minimum: Int = 8) -> [String: String] {
    let sorted = Array(Set(ids)).sorted()
    var result: [String: String] = [:]
    for (i, id) in sorted.enumerated() {
      var length = min(max(minimum, RecordLookup.shortest), id.count)
      for neighbour in [i > 0 ? sorted[i - 1] : nil, i + 1 < sorted.count ? sorted[i + 1] : nil].compactMap({ $0 }) {
        let shared = zip(id, neighbour).prefix { $0 == $1 }.count
        length = max(length, min(shared + 1, id.count))
      }
      result[id] = String(id.prefix(length))
    }
    return result
  }
}
