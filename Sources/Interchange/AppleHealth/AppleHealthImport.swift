import Core
import Cryptography
import Foundation
import Records
import Replication
import Storage
import ZIPFoundation

/// Imports the Health app's `export.xml`, or `export.zip` read in place, streaming: memory
/// stays flat whatever the file's size. Records, workouts and activity summaries get ids made
/// from their content, so importing the same data again (or on another device) adds nothing.
/// New records are committed in batches; when the file turns out to be malformed part-way,
/// everything read before the fault is kept and the error says how much.
public final class AppleHealthImport {
  public struct Summary: Equatable, Sendable {
    /// Records, workouts and activity summaries read (records inside a Correlation are not
    /// counted: the export lists them at the top level too).
    public var records = 0
    public var inserted = 0
    public var duplicates = 0
    /// Activity summaries whose figures changed since the last import (a day exported while under way).
    public var updated = 0
    public var inCorrelations = 0
    /// Blood pressure correlations without both halves: left out, never kept as half a reading.
    public var halfReadings = 0
    /// Elements without a type or with dates that do not parse, and those whose values no rule
    /// lets in (`invalid`).
    public var skipped = 0
    /// Records left out because a value fails its rule: a step count of 1e308, -5000, NaN or inf,
    /// an end before the start. Counted in `skipped` too.
    public var invalid = 0
    public var byType: [String: Int] = [:]
    /// Workouts whose route file was read whole, and the points in them.
    public var routes = 0
    public var routePoints = 0
    /// A line for each route the export names but that could not be kept: missing from the
    /// export, not GPX, or longer than any workout. Its workout is kept without it.
    public var routeProblems: [String] = []
  }

  /// The caller's connection: sources and totals are written through it once the records are in.
  let db: Database
  /// The database file: the writer thread opens its own connection to it.
  let path: String
  let accountID: String
  let now: Date
  let batchSize: Int
  var summary = Summary()
  private var batches: ImportBatches?
  private var correlationDepth = 0
  private var correlation: CorrelationParts?
  private var sawRoot = false
  private var workout: WorkoutParts?
  private var stream: XMLStream?
  var name = ""
  /// Each workout's route file as the export names it (`/workout-routes/route_….gpx`), read
  /// once the export itself is in.
  var routes: [(workoutID: String, start: Date, path: String)] = []
  /// Where route paths lead: the zip holding the export, or the folder export.xml is in.
  var routeOrigin: RouteOrigin?
  private let interner = Interner()
  /// Each source met, and its kind of device: from a record's `device` where one has it.
  private var sources: [String: (kind: HealthSource.Kind, fromDevice: Bool)] = [:]

  public init(db: Database, accountID: String, now: Date, batchSize: Int = 5000) {
    precondition(db.path != ":memory:", "the import writes through a connection of its own: it needs a file")
    self.db = db
    self.path = db.path
    self.accountID = accountID
    self.now = now
    self.batchSize = batchSize
    Self.sampleFields
  }

  /// Imports `path`; `progress` gets the bytes read so far and the total.
  public func run(path: String, progress: (Int64, Int64) -> Void = { _, _ in }) throws -> Summary {
    name = (path as NSString).lastPathComponent
    do {
      try XMLStream.requireLibrary()
    } catch let error as XMLStream.Unavailable {
      throw HealthImportError.needsLibXML2(reason: error.reason)
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw HealthImportError.cannotRead(name, reason: String(cString: strerror(errno)))
    }
    defer { try? handle.close() }
    let size = Int64((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)??.int64Value ?? 0)
    let head = (try? handle.read(upToCount: 4)) ?? Data()
    guard !head.isEmpty else { throw HealthImportError.empty(name) }
    let batches = ImportBatches(db: db, accountID: accountID, now: now, batchSize: batchSize)
    self.batches = batches
    defer { self.batches = nil }
    let stream = makeStream()
    if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
      try readZip(path: path, stream: stream, progress: progress)
    } else {
      try handle.seek(toOffset: 0)
      routeOrigin = .folder((path as NSString).deletingLastPathComponent)
      var read: Int64 = 0
      while true {
        let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
        if chunk.isEmpty { break }
        read += Int64(chunk.count)
        try feed(stream, chunk)
        progress(read, size)
      }
    }
    try finish(stream)
    try db.transaction { db in
      try HealthStore.note(sources.filter { !$0.key.isEmpty }, replica: Replica(db: db, accountID: accountID, now: now))
    }
    // Counted now, while the samples are in the page cache, instead of on the first read.
    try HealthTotals(db: db, accountID: accountID, now: now).refresh()
    return summary
  }

  /// Waits for the writer and adds its counts to the summary.
  private func drain() throws {
    guard let counts = try batches?.finish() else { return }
    summary.inserted = counts.inserted
    summary.duplicates = counts.duplicates
    summary.updated = counts.updated
  }

  private func readZip(path: String, stream: XMLStream, progress: (Int64, Int64) -> Void) throws {
    let archive: Archive
    do {
      archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
    } catch {
      throw HealthImportError.unreadableZip(name, reason: "\(error)")
    }
    let candidates = archive.filter {
      $0.type == .file && ($0.path as NSString).lastPathComponent == "export.xml" && !$0.path.hasPrefix("__MACOSX")
    }
    guard let entry = candidates.first(where: { $0.path == "apple_health_export/export.xml" }) ?? candidates.first
    else { throw HealthImportError.noExportInZip(name) }
    routeOrigin = .zip(archive, folder: (entry.path as NSString).deletingLastPathComponent)
    let total = Int64(entry.uncompressedSize)
    var read: Int64 = 0
    do {
      // The checksum is known only at the end: checked in a pass of its own before anything is
      // imported, so a damaged archive adds no record (inflating costs a fraction of parsing).
      let checksum = try archive.extract(entry, bufferSize: 1 << 20) { _ in }
      guard checksum == entry.checksum else { throw HealthImportError.damagedZip(name) }
      _ = try archive.extract(entry, bufferSize: 1 << 20) { chunk in
        read += Int64(chunk.count)
        try self.feed(stream, chunk)
        progress(read, total)
      }
    } catch let error as HealthImportError {
      throw error
    } catch let error as StorageError {
      throw error
    } catch {
      throw HealthImportError.unreadableZip(name, reason: "\(error)")
    }
  }

  private func feed(_ stream: XMLStream, _ chunk: Data) throws {
    do {
      try chunk.withUnsafeBytes { try stream.feed($0) }
    } catch let error as XMLStream.ParseError {
      throw try malformed(error)
    }
  }

  private func finish(_ stream: XMLStream) throws {
    do {
      try stream.feed(UnsafeRawBufferPointer(start: nil, count: 0), last: true)
    } catch let error as XMLStream.ParseError {
      throw try malformed(error)
    }
    guard sawRoot else { throw HealthImportError.empty(name) }
    try flush()
    // The routes after every workout is read, while the writer still takes batches.
    try readRoutes()
    try drain()
  }

  /// Keeps what was read before the fault, then reports it.
  private func malformed(_ error: XMLStream.ParseError) throws -> HealthImportError {
    try flush()
    try drain()
    return .malformed(name, line: error.line, column: error.column, reason: error.message, kept: summary.inserted)
  }

  // MARK: Elements

  private func makeStream() -> XMLStream {
    let stream = XMLStream(
      onStart: { [unowned self] element, attributes in
        do {
          try self.start(element, attributes)
        } catch {
          self.stream?.stop(error)
        }
      },
      onEnd: { [unowned self] element in
        do {
          try self.end(element)
        } catch {
          self.stream?.stop(error)
        }
      })
    self.stream = stream
    return stream
  }

  private func start(_ element: UnsafePointer<UInt8>, _ attributes: XMLStream.Attributes) throws {
    if !sawRoot {
      sawRoot = true
      guard Bytes.equal(element, "HealthData") else {
        throw HealthImportError.notAnExport(name, root: String(cString: element))
      }
      return
    }
    if Bytes.equal(element, "Record") {
      if correlationDepth > 0 {
        summary.inCorrelations += 1
        correlation?.add(record: attributes)
      } else {
        try record(attributes)
      }
    } else if Bytes.equal(element, "Correlation") {
      correlationDepth += 1
      if correlationDepth == 1 { correlation = CorrelationParts(attributes) }
    } else if Bytes.equal(element, "Workout") {
      workout = WorkoutParts(attributes)
    } else if Bytes.equal(element, "WorkoutStatistics") {
      workout?.addStatistics(attributes)
    } else if Bytes.equal(element, "FileReference"), workout != nil, workout?.routePath == nil {
      workout?.routePath = attributes.values["path"]
    } else if Bytes.equal(element, "Location"), workout != nil, workout?.routePath == nil {
      workout?.addLocation(attributes)
    } else if Bytes.equal(element, "ActivitySummary") {
      try activitySummary(attributes)
    }
  }

  private func end(_ element: UnsafePointer<UInt8>) throws {
    if Bytes.equal(element, "Correlation") {
      correlationDepth -= 1
      if correlationDepth == 0, let parts = correlation {
        correlation = nil
        try add(correlation: parts)
      }
    } else if Bytes.equal(element, "Workout"), let parts = workout {
      workout = nil
      try add(workout: parts)
    }
  }

  private func record(_ attributes: XMLStream.Attributes) throws {
    var type: String?
    var unit: String?
    var valueText: String?
    var source: String?
    var start: Date?
    var end: Date?
    var device: UnsafePointer<UInt8>?
    attributes.forEach { key, value in
      switch key[0] {
      case UInt8(ascii: "t") where Bytes.equal(key, "type"): type = interner.string(value)
      case UInt8(ascii: "u") where Bytes.equal(key, "unit"): unit = interner.string(value)
      case UInt8(ascii: "v") where Bytes.equal(key, "value"): valueText = String(cString: value)
      case UInt8(ascii: "s") where Bytes.equal(key, "sourceName"): source = interner.string(value)
      case UInt8(ascii: "s") where Bytes.equal(key, "startDate"): start = HealthDate.parse(value)
      case UInt8(ascii: "e") where Bytes.equal(key, "endDate"): end = HealthDate.parse(value)
      case UInt8(ascii: "d") where Bytes.equal(key, "device"): device = value
      default: break
      }
    }
    // The kind is read once per source (and again until a record with a device tells it).
    let name = source ?? ""
    if sources[name]?.fromDevice != true, sources[name] == nil || device != nil {
      sources[name] = (HealthSource.Kind(device: device.map { String(cString: $0) }, name: name), device != nil)
    }
    summary.records += 1
    guard let type, let start, let end = end ?? Optional(start) else {
      summary.skipped += 1
      return
    }
    var value: DatabaseValue = valueText.map(DatabaseValue.text) ?? .null
    var storedUnit = unit
    if let text = valueText, let number = Double(text), number.isFinite {
      let (converted, u) = HealthType.normalise(type: type, value: number, unit: unit)
      value = HealthType.stored(converted)
      storedUnit = u
    }
    let startText = ISO8601.string(from: start)
    let endText = ISO8601.string(from: end)
    let id = Self.id("hs", start, [type, source ?? "", startText, endText, valueText ?? "", unit ?? ""])
    summary.byType[type, default: 0] += 1
    // In the order of `sampleFields`: the shape's, the dates as already written for the id.
    try add(
      .healthSample, id: id,
      [.text(type), value, storedUnit.databaseValue, source.databaseValue, .text(startText), .text(endText)])
  }

  /// A blood pressure reading, as one sample; other correlations' halves are at the top level.
  private func add(correlation c: CorrelationParts) throws {
    guard c.isBloodPressure else { return }
    summary.records += 1
    guard let type = c.type, let start = c.start, let end = c.end ?? c.start, let reading = c.reading else {
      summary.halfReadings += c.type != nil && c.start != nil ? 1 : 0
      summary.skipped += 1
      return
    }
    let value = reading.description
    let (startText, endText) = (ISO8601.string(from: start), ISO8601.string(from: end))
    let id = Self.id("hs", start, [type, c.source ?? "", startText, endText, value, BloodPressure.unit])
    summary.byType[type, default: 0] += 1
    try add(
      .healthSample, id: id,
      [.text(type), .text(value), .text(BloodPressure.unit), c.source.databaseValue, .text(startText), .text(endText)])
  }

  private func add(workout w: WorkoutParts) throws {
    summary.records += 1
    guard let type = w.type, let start = w.start, let end = w.end else {
      summary.skipped += 1
      return
    }
    let id = Self.id("wo", start, [type, w.source ?? "", ISO8601.string(from: start), ISO8601.string(from: end)])
    summary.byType[type, default: 0] += 1
    var workout = HealthStore.Workout()
    (workout.id, workout.type, workout.source, workout.start, workout.end) = (id, type, w.source, start, end)
    (workout.durationSeconds, workout.distanceMetres, workout.energyKcal) = (
      w.durationSeconds, w.distanceMetres, w.energyKcal
    )
    try add(.workout, id: id, HealthStore.Workout.shape.values(workout, HealthStore.Workout.synced))
    if let path = w.routePath {
      routes.append((id, start, path))
    } else {
      try addInlineRoute(w, workoutID: id, start: start)
    }
  }

  /// The order `record` writes a sample's fields in: checked against the shape once, since the
  /// hot loop writes them positionally.
  static let sampleFields: Void = {
    let order = HealthStore.Sample.shape.selection(of: [\.type, \.stored, \.unit, \.source, \.start, \.end])
    precondition(order.names == Dataset.healthSample.fields, "the import writes samples in the shape's order")
  }()

  // MARK: Batches

  func add(_ dataset: Dataset, id: String, _ values: [DatabaseValue]) throws {
    // The export is the Health app's, and one bad record in a million stays out alone.
    if try batches?.add(dataset, id: id, values) == false {
      summary.skipped += 1
      summary.invalid += 1
    }
  }

  func flush() throws { try batches?.flush() }

  /// `hs-`, the start time in hex seconds, and 24 hex digits of the SHA-256 of the identifying
  /// fields. Exports run in time order, so new ids land at the end of the indexes instead of
  /// at random places in them.
  /// How much of such an id a table shows: the prefix, the start second, and four digits of
  /// the hash. A reading and its halves, or a minute's samples, share their start second.
  public static let shownID = 17

  static func id(_ prefix: String, _ start: Date, _ parts: [String]) -> String {
    let seconds = UInt64(max(0, start.timeIntervalSince1970))
    let time = String(seconds, radix: 16)
    return "\(prefix)-" + String(repeating: "0", count: max(0, 9 - time.count)) + time + "-"
      + Crypto.sha256Hex(utf8: parts.joined(separator: "\u{1F}")).prefix(24)
  }
}
