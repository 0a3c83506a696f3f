import Storage

/// A table whose rows sync: its key column and the fields that travel, taken from the table's
/// description. Every other column is local: the owning account, a write stamp, blob bytes that
/// travel on their own.
public struct Dataset: Hashable, Sendable {
  /// What describes the dataset, held once for all its copies: a dataset goes with each record
  /// a pull reads, checks and writes, and a copy of its sixteen members retained and released
  /// each of them (a sixth of the reference counting of a first sync).
  private let box: Box

  private final class Box: Sendable {
    let members: Members
    init(_ members: Members) { self.members = members }
  }

  struct Members: Hashable, Sendable {
    let name: String
    let table: String
    let key: String
    /// The synced columns, in the table's order: bulk inserts take values in this order.
    let fields: [String]
    /// Columns kept on this device only (blob bytes that travel on their own), neither key, owner
    /// nor stamp.
    let local: [String]
    /// A column set to the write time on every local or remote write, if the table has one.
    let stamp: String?
    /// For rows that cover a stretch of time: the columns holding its start and end (UTC ISO 8601
    /// text). Every write then notes the UTC days it touched (`Replica.changedDays`), so a cache
    /// derived from the rows recomputes those days and no others, whoever wrote them.
    let span: Span?
    /// What each synced field may hold: the rule given, else one from the column's type.
    let rules: [String: FieldRule]
    /// Fields a record must have (`NOT NULL` in the table).
    let required: Set<String>
    /// What the table keeps for a field that comes as NULL where the column has a default
    /// (`NOT NULL DEFAULT 0`): an explicit NULL would break the table's rule, and with it the page.
    let defaults: [String: DatabaseValue]
    let recordRules: [RecordRule]
    /// The places in `fields` of the two fields each of `recordRules` reads, in the order it names
    /// them: a bulk check reads them by place (by name, each record cost five lookups).
    let recordRulePlaces: [RulePlaces]
    /// At most one record per account (`account_id` is UNIQUE in the table): the profile.
    let onePerAccount: Bool
    /// Each field's place in `fields`.
    let fieldIndex: [String: Int]
    /// The names of `fields` in name order: the order a change's fields travel in, in which an
    /// outbox entry for a whole record is read out (its fields are then each added at the end),
    /// one array for every record read whole.
    let namesInOrder: [String]
    /// Each field's rule and whether it is required, in `fields` order: a bulk write checks
    /// every value of every record, and three lookups by name per value took most of its time.
    let inOrder: [FieldCheck]

    /// What `Dataset.init` describes.
    init(
      _ table: Table, key: String, stamp: String?, local: [String], span: Span?, rules: [String: FieldRule],
      recordRules: [RecordRule]
    ) {
      let names = table.columnNames
      precondition(names.contains(key) && names.contains("account_id"), "\(table.name) needs \(key) and account_id")
      precondition(
        (local + [stamp].compactMap { $0 } + [span?.start, span?.end].compactMap { $0 }).allSatisfy(names.contains),
        "\(table.name): unknown local or span column")
      let notSynced = Set([key, "account_id"] + local + [stamp].compactMap { $0 })
      self.name = table.name
      self.table = table.name
      self.key = key
      self.fields = names.filter { !notSynced.contains($0) }
      self.local = local
      self.stamp = stamp
      self.span = span
      let fields = self.fields
      precondition(rules.keys.allSatisfy(fields.contains), "\(table.name): a rule for a field that does not sync")
      var all: [String: FieldRule] = [:]
      var required: Set<String> = []
      var defaults: [String: DatabaseValue] = [:]
      for column in table.columns where fields.contains(column.name) {
        // A column the table fills in by default (`NOT NULL DEFAULT 0`) may come without a value.
        let notNull = Dataset.has(column.definition, "NOT NULL")
        if notNull, !Dataset.has(column.definition, "DEFAULT") { required.insert(column.name) }
        if notNull, let value = Dataset.defaultValue(column.definition) {
          defaults[column.name] = value
        }
        all[column.name] = rules[column.name] ?? Dataset.rule(forType: column.definition.uppercased())
      }
      self.rules = all
      self.required = required
      self.defaults = defaults
      self.recordRules = recordRules
      onePerAccount =
        table.columns.first { $0.name == "account_id" }.map { Dataset.has($0.definition, "UNIQUE") } ?? false
      let fieldIndex = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1, $0) })
      self.fieldIndex = fieldIndex
      namesInOrder = fields.sorted()
      recordRulePlaces = recordRules.map { rule in
        let (first, second) = rule.fields
        return RulePlaces(first: fieldIndex[first], second: fieldIndex[second])
      }
      inOrder = fields.map { FieldCheck(rule: all[$0], required: required.contains($0), stored: defaults[$0]) }
    }
  }

  public var name: String { box.members.name }
  public var table: String { box.members.table }
  public var key: String { box.members.key }
  public var fields: [String] { box.members.fields }
  public var local: [String] { box.members.local }
  var stamp: String? { box.members.stamp }
  public var span: Span? { box.members.span }
  public var rules: [String: FieldRule] { box.members.rules }
  public var required: Set<String> { box.members.required }
  public var defaults: [String: DatabaseValue] { box.members.defaults }
  public var recordRules: [RecordRule] { box.members.recordRules }
  var recordRulePlaces: [RulePlaces] { box.members.recordRulePlaces }
  public var onePerAccount: Bool { box.members.onePerAccount }
  var fieldIndex: [String: Int] { box.members.fieldIndex }
  public var namesInOrder: [String] { box.members.namesInOrder }
  var inOrder: [FieldCheck] { box.members.inOrder }

  /// The dataset of `table`: every column syncs except `key`, `account_id`, `stamp` and `local`.
  /// `rules` say what a field may hold beyond its column's type; `recordRules` relate fields.
  public init(
    _ table: Table, key: String = "id", stamp: String? = nil, local: [String] = [], span: Span? = nil,
    rules: [String: FieldRule] = [:], recordRules: [RecordRule] = []
  ) {
    box = Box(Members(table, key: key, stamp: stamp, local: local, span: span, rules: rules, recordRules: recordRules))
  }

  private init(box: Box) { self.box = box }

  /// The same dataset, described by a box of its own: records made with it share no reference
  /// count with those made with another copy. A first sync's cores (one reading pages, one
  /// writing them, one freeing them) each retained and released the one box for every record
  /// they touched, and waited on each other for it.
  public func detached() -> Dataset { Dataset(box: Box(box.members)) }

  public static func == (a: Dataset, b: Dataset) -> Bool { a.box === b.box || a.box.members == b.box.members }

  public func hash(into hasher: inout Hasher) { hasher.combine(box.members) }

  struct RulePlaces: Hashable, Sendable {
    let first: Int?
    let second: Int?
  }

  struct FieldCheck: Hashable, Sendable {
    let rule: FieldRule?
    let required: Bool
    /// What the table keeps for a NULL (`defaults`).
    let stored: DatabaseValue?
  }

  public struct Span: Hashable, Sendable {
    public let start: String
    public let end: String

    public init(start: String, end: String) {
      self.start = start
      self.end = end
    }
  }

  /// Whether `definition` holds `word` (upper-case ASCII) in any case. By hand, as
  /// `defaultValue` reads: Foundation's `contains` compares through NSString, and every command
  /// describes every dataset when it starts.
  static func has(_ definition: String, _ word: String) -> Bool {
    let bytes = Array(definition.utf8)
    let word = Array(word.utf8)
    return bytes.indices.contains { matches(word, in: bytes, at: $0) } || word.isEmpty
  }

  /// Whether `bytes` hold `word` (upper-case ASCII) at `at`, letters in any case.
  static func matches(_ word: [UInt8], in bytes: [UInt8], at: Int) -> Bool {
    guard at + word.count <= bytes.count else { return false }
    for offset in word.indices {
      let b = bytes[at + offset]
      let w = word[offset]
      guard b == w || ((65...90).contains(w) && b == w | 0x20) else { return false }
    }
    return true
  }

  /// The rule a column's type alone makes: any text up to a synced value's limit, a finite
  /// number, a whole number.
  static func rule(forType definition: String) -> FieldRule {
    if definition.hasPrefix("REAL") { return .number(-1e15...1e15) }
    if definition.hasPrefix("INTEGER") { return .integer(Int64.min...Int64.max) }
    if definition.hasPrefix("ANY") { return .numberOrText(-1e15...1e15, maxBytes: 1 << 20) }
    if definition.hasPrefix("BLOB") { return .text(maxBytes: 1 << 20) }
    return .text(maxBytes: 1 << 20)
  }
}

extension Array where Element == Dataset {
  public func named(_ name: String) -> Dataset? { first { $0.name == name } }
}

extension Dataset {
  /// A field that fails its rule, and why.
  public struct Fault: Error, Equatable, Sendable {
    public let field: String
    public let reason: String
  }

  /// The first fault of a record whose values follow `fields` (as bulk writes have them).
  public func fault(inOrder values: [DatabaseValue]) -> Fault? {
    guard values.count == fields.count else { return Fault(field: fields.first ?? "", reason: "of the wrong shape") }
    return fault(valueAt: { values[$0] })
  }

  /// The first fault of a record whose value at each place of `fields` is `valueAt(place)`: for
  /// a record read where it is, without gathering its values first.
  @inline(__always)
  func fault(valueAt: (Int) -> DatabaseValue) -> Fault? {
    for index in fields.indices {
      let value = valueAt(index)
      // Read in place: a copy of each field's check retained its rule, for every field of every
      // record of a first sync.
      if value == .null {
        if inOrder[index].required { return Fault(field: fields[index], reason: "missing") }
        continue
      }
      if let reason = inOrder[index].rule?.fault(value) { return Fault(field: fields[index], reason: reason) }
    }
    guard !recordRules.isEmpty else { return nil }
    return recordFault(touching: nil) { _, place in place.map(valueAt) }
  }

  /// `value` as the table keeps it: a NULL for a column with a default is the default.
  public func stored(_ field: String, _ value: DatabaseValue) -> DatabaseValue {
    value == .null ? defaults[field] ?? .null : value
  }

  /// The place of `field` in `fields`.
  public func place(of field: String) -> Int? {
    fieldIndex[field]
  }

  /// `stored` for the field at `index` of `fields`.
  func stored(at index: Int, _ value: DatabaseValue) -> DatabaseValue {
    if case .null = value { return inOrder[index].stored ?? .null }
    return value
  }

  /// The literal after `DEFAULT` in a column's definition: a whole number or a quoted text.
  /// Read by hand, not by a regex: every process describes its datasets at start, and a regex
  /// literal is parsed anew on each use (a third of a one-record sync's time).
  static func defaultValue(_ definition: String) -> DatabaseValue? {
    let bytes = Array(definition.utf8)
    let word = Array("DEFAULT".utf8)
    var at = 0
    while at + word.count <= bytes.count {
      defer { at += 1 }
      guard Self.matches(word, in: bytes, at: at) else { continue }
      var i = at + word.count
      guard i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 else { continue }
      while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 { i += 1 }
      guard i < bytes.count else { return nil }
      if bytes[i] == 39 {
        // A quoted text: '' stands for one quote.
        var text: [UInt8] = []
        i += 1
        while i < bytes.count {
          if bytes[i] == 39 {
            guard i + 1 < bytes.count, bytes[i + 1] == 39 else { return .text(String(decoding: text, as: UTF8.self)) }
            i += 1
          }
          text.append(bytes[i])
          i += 1
        }
        return nil
      }
      let start = i
      if bytes[i] == 45 { i += 1 }
      let digits = i
      while i < bytes.count, (48...57).contains(bytes[i]) { i += 1 }
      let isWordByte = { (b: UInt8) in (48...57).contains(b) || (65...90).contains(b & 0xDF) || b == 95 }
      guard i > digits, i == bytes.count || !isWordByte(bytes[i]) else { continue }
      return Int64(String(decoding: bytes[start..<i], as: UTF8.self)).map(DatabaseValue.integer)
    }
    return nil
  }

  /// The first fault of `record` (its synced fields by name; a field missing is NULL). With
  /// `touching`, only faults of those fields (and of rules relating them) count: a change merged
  /// into a record judges what it changes, not what an older Vital stored before.
  public func fault(in record: [String: DatabaseValue], touching: Set<String>? = nil) -> Fault? {
    fault(touching: touching) { record[$0] }
  }

  /// The first fault of the record whose fields `value` gives (nil: missing).
  public func fault(touching: Set<String>? = nil, _ value: (String) -> DatabaseValue?) -> Fault? {
    func concerns(_ field: String) -> Bool { touching?.contains(field) ?? true }
    for field in fields where concerns(field) {
      let value = value(field) ?? .null
      if value == .null {
        if required.contains(field) { return Fault(field: field, reason: "missing") }
        continue
      }
      if let rule = rules[field], let reason = rule.fault(value) { return Fault(field: field, reason: reason) }
    }
    return recordFault(touching: touching) { name, _ in value(name) }
  }

  /// The first fault of the rules that relate a record's fields; `value` is given each field's
  /// name and its place in `fields`.
  private func recordFault(touching: Set<String>?, _ value: (String, Int?) -> DatabaseValue?) -> Fault? {
    func concerns(_ field: String) -> Bool { touching?.contains(field) ?? true }
    for (rule, places) in zip(recordRules, recordRulePlaces) {
      let (first, second) = (places.first, places.second)
      switch rule {
      case .order(let earlier, let later):
        guard concerns(earlier) || concerns(later), case .text(let a)? = value(earlier, first),
          case .text(let b)? = value(later, second)
        else { continue }
        if b < a { return Fault(field: later, reason: "before \(earlier)") }
      case .requiredWhen(let field, let expected, let needed):
        guard concerns(field) || concerns(needed), value(field, first) == .text(expected) else { continue }
        if (value(needed, second) ?? .null) == .null {
          return Fault(field: needed, reason: "missing when \(field) is \(expected)")
        }
      case .numberWhen(let field, let kinds, let number, let range):
        guard concerns(field) || concerns(number), case .text(let kind)? = value(field, first), kinds.contains(kind)
        else {
          continue
        }
        let amount = value(number, second) ?? .null
        if amount == .null { return Fault(field: number, reason: "missing") }
        if let reason = FieldRule.number(range).fault(amount) { return Fault(field: number, reason: reason) }
      }
    }
    return nil
  }
}
