import Foundation
import Replication

/// A change's fields by name, held in name order: the order they travel in. As a dictionary,
/// every field was hashed where a change was built, read and merged, and every change was
/// sorted again where it was written: a first push of 100,000 records sorted them once on the
/// device and once on the server, and hashed each of their 1.1 million fields on both.
public struct WireFields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, FieldMap {
  public typealias Element = (key: String, value: WireField)

  /// The names, in order (`String`'s `<`); `values` at the same places.
  public private(set) var keys: [String] = []
  public private(set) var values: [WireField] = []

  public init() {}

  public init(minimumCapacity: Int) {
    keys.reserveCapacity(minimumCapacity)
    values.reserveCapacity(minimumCapacity)
  }

  public init(dictionaryLiteral elements: (String, WireField)...) {
    self.init(minimumCapacity: elements.count)
    for (name, field) in elements {
      precondition(self[name] == nil, "a field named twice: \(name)")
      self[name] = field
    }
  }

  /// Fields whose names are already in order and each there once (a dataset's `namesInOrder`).
  public init(inOrder names: [String], _ fields: [WireField]) {
    precondition(names.count == fields.count, "one field per name")
    assert(zip(names, names.dropFirst()).allSatisfy { $0 < $1 }, "names in order, each once")
    keys = names
    values = fields
  }

  public init(_ fields: [String: WireField]) {
    self.init(minimumCapacity: fields.count)
    for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
      keys.append(name)
      values.append(field)
    }
  }

  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    keys.reserveCapacity(minimumCapacity)
    values.reserveCapacity(minimumCapacity)
  }

  public var count: Int { keys.count }
  public var isEmpty: Bool { keys.isEmpty }

  public subscript(name: String) -> WireField? {
    get {
      let (index, found) = place(of: name)
      return found ? values[index] : nil
    }
    set {
      let (index, found) = place(of: name)
      switch (found, newValue) {
      case (true, let field?): values[index] = field
      case (true, nil):
        keys.remove(at: index)
        values.remove(at: index)
      case (false, let field?) where index == keys.count:
        // Most fields are written in name order (a page's reader, a push): at the end.
        keys.append(name)
        values.append(field)
      case (false, let field?):
        keys.insert(name, at: index)
        values.insert(field, at: index)
      case (false, nil): break
      }
    }
  }

  /// Adds a field not there yet; false, changing nothing, when `name` is there already.
  public mutating func insertNew(_ name: String, _ field: WireField) -> Bool {
    let (index, found) = place(of: name)
    guard !found else { return false }
    if index == keys.count {
      keys.append(name)
      values.append(field)
    } else {
      keys.insert(name, at: index)
      values.insert(field, at: index)
    }
    return true
  }

  /// Adds a field whose name sorts after every name there (the caller knows it: a reader that
  /// met the same names in the same order before).
  public mutating func append(afterAll name: String, _ field: WireField) {
    assert(keys.last.map { $0 < name } ?? true, "a name after all the others")
    keys.append(name)
    values.append(field)
  }

  /// Where `name` is, or where it would go. Fields are mostly written and read in name order
  /// (a page's reader, a merge), so the end is tried before the middle.
  private func place(of name: String) -> (index: Int, found: Bool) {
    guard let last = keys.last else { return (0, false) }
    if last < name { return (keys.count, false) }
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < name { low = middle + 1 } else { high = middle }
    }
    return (low, low < keys.count && keys[low] == name)
  }

  public func makeIterator() -> Iterator { Iterator(fields: self) }

  public struct Iterator: IteratorProtocol {
    let fields: WireFields
    var index = 0

    public mutating func next() -> Element? {
      guard index < fields.keys.count else { return nil }
      defer { index += 1 }
      return (fields.keys[index], fields.values[index])
    }
  }

  /// Each field's `transform`, by name.
  public func mapValues<T>(_ transform: (WireField) throws -> T) rethrows -> [String: T] {
    Dictionary(uniqueKeysWithValues: zip(keys, try values.map(transform)))
  }

  /// The same fields as a dictionary.
  public var dictionary: [String: WireField] {
    Dictionary(uniqueKeysWithValues: zip(keys, values))
  }
}

/// Fields travel as a JSON object: a field without a clock of its own has the clock `"*"`.
extension WireFields: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Name.self)
    // Present, it is a clock: not null (as the fast reader has it).
    let shared = container.contains(Name.shared) ? try container.decode(String.self, forKey: Name.shared) : nil
    var fields: [String: WireField] = [:]
    var taken = false
    for key in container.allKeys where key.stringValue != Name.shared.stringValue {
      let field = try container.decode(Stored.self, forKey: key)
      guard let hlc = field.hlc ?? shared else {
        throw DecodingError.keyNotFound(
          Name.hlc, .init(codingPath: container.codingPath + [key], debugDescription: "a field without a clock"))
      }
      taken = taken || field.hlc == nil
      fields[key.stringValue] = WireField(value: field.value, hlc: hlc)
    }
    if shared != nil, !taken {
      throw DecodingError.dataCorruptedError(
        forKey: Name.shared, in: container, debugDescription: "a shared clock that no field takes")
    }
    self.init(fields)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(dictionary)
  }

  /// A field as it is read: its clock may be the record's. Present, `hlc` is a clock, not null
  /// (as the fast reader has it).
  private struct Stored: Decodable {
    var value: WireValue
    var hlc: String?

    enum CodingKeys: String, CodingKey { case value, hlc }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      value = try container.decode(WireValue.self, forKey: .value)
      hlc = container.contains(.hlc) ? try container.decode(String.self, forKey: .hlc) : nil
    }
  }

  private struct Name: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    static let shared = Name(stringValue: "*")
    static let hlc = Name(stringValue: "hlc")
  }
}
