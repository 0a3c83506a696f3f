import Foundation
import Records
import Storage

/// A Workout as it is read: its attributes, then its WorkoutStatistics children (iOS 16 and
/// later put distance and energy there instead of on the element).
struct WorkoutParts {
  var type: String?
  var source: String?
  var start: Date?
  var end: Date?
  var durationSeconds: Double?
  var distanceMetres: Double?
  var energyKcal: Double?
  /// The first `WorkoutRoute`'s `FileReference`: `/workout-routes/route_….gpx`.
  var routePath: String?
  /// Older exports (before iOS 12) wrote the route inside the workout, as `Location` elements.
  var inlineRoute: [RoutePoint] = []
  /// Why the inline route cannot be kept, once a point showed it: it is then left out whole.
  var inlineProblem: GPXRoute.Problem?

  /// One `<Location date latitude longitude altitude>` of an older export's inline route.
  mutating func addLocation(_ attributes: XMLStream.Attributes) {
    guard inlineProblem == nil else { return }
    guard inlineRoute.count < WorkoutRoute.maxPoints else {
      inlineProblem = .tooManyPoints
      inlineRoute.removeAll()
      return
    }
    let values = attributes.values
    let elevation = values["altitude"].flatMap(Double.init)
    guard let time = values["date"].flatMap(HealthDate.parse), let latitude = values["latitude"].flatMap(Double.init),
      let longitude = values["longitude"].flatMap(Double.init), latitude.isFinite, longitude.isFinite,
      elevation?.isFinite ?? true, time >= (inlineRoute.last?.time ?? .distantPast)
    else {
      inlineProblem = .badPoint(inlineRoute.count + 1)
      inlineRoute.removeAll()
      return
    }
    let point = RoutePoint(time: time, latitude: latitude, longitude: longitude, elevation: elevation)
    guard point.isValid else {
      inlineProblem = .badPoint(inlineRoute.count + 1)
      inlineRoute.removeAll()
      return
    }
    inlineRoute.append(point)
  }

  init(_ attributes: XMLStream.Attributes) {
    let values = attributes.values
    type = values["workoutActivityType"]
    source = values["sourceName"]
    start = values["startDate"].flatMap(HealthDate.parse)
    end = values["endDate"].flatMap(HealthDate.parse)
    if let d = values["duration"].flatMap(Double.init) {
      durationSeconds = d * (HealthType.seconds[values["durationUnit"] ?? "min"] ?? 60)
    }
    if let d = values["totalDistance"].flatMap(Double.init),
      let f = HealthType.metres[values["totalDistanceUnit"] ?? "m"]
    {
      distanceMetres = d * f
    }
    if let e = values["totalEnergyBurned"].flatMap(Double.init),
      let f = HealthType.kilocalories[values["totalEnergyBurnedUnit"] ?? "kcal"]
    {
      energyKcal = e * f
    }
  }

  mutating func addStatistics(_ attributes: XMLStream.Attributes) {
    let values = attributes.values
    guard let type = values["type"], let sum = values["sum"].flatMap(Double.init) else { return }
    let unit = values["unit"] ?? ""
    if type.hasPrefix("HKQuantityTypeIdentifierDistance"), distanceMetres == nil, let f = HealthType.metres[unit] {
      distanceMetres = sum * f
    } else if type == HealthType.activeEnergy, energyKcal == nil, let f = HealthType.kilocalories[unit] {
      energyKcal = sum * f
    }
  }
}

/// Byte-level helpers for the parser's NUL-terminated names.
enum Bytes {
  static func equal(_ p: UnsafePointer<UInt8>, _ s: StaticString) -> Bool {
    let n = s.utf8CodeUnitCount
    return memcmp(p, s.utf8Start, n) == 0 && p[n] == 0
  }
}

/// The export's `2024-01-01 01:01:36 +0200`.
enum HealthDate {
  static func parse(_ p: UnsafePointer<UInt8>) -> Date? {
    func digits(_ at: Int, _ count: Int) -> Int? {
      var v = 0
      for i in at..<at + count {
        let c = p[i]
        guard c >= 48, c <= 57 else { return nil }
        v = v * 10 + Int(c - 48)
      }
      return v
    }
    // Checks the separators up to the offset, stopping at the NUL that ends a short value.
    let shape = Array("0000-00-00 00:00:00 +0000".utf8)
    for (i, expected) in shape.enumerated() {
      let c = p[i]
      if c == 0 { return nil }
      if expected == 48 { continue }
      if expected == 43 { guard c == 43 || c == 45 else { return nil } } else if c != expected { return nil }
    }
    guard p[shape.count] == 0, let y = digits(0, 4), let mo = digits(5, 2), let d = digits(8, 2), let h = digits(11, 2),
      let mi = digits(14, 2), let s = digits(17, 2), let oh = digits(21, 2), let om = digits(23, 2),
      (1...12).contains(mo), d >= 1, d <= ISO8601.daysIn(month: mo, year: y), h < 24, mi < 60, s < 61
    else { return nil }
    let days = ISO8601.days(fromCivil: Int64(y), mo, d)
    let offset = (p[20] == 45 ? -1 : 1) * (oh * 3600 + om * 60)
    let seconds = days * 86_400 + Int64(h * 3600 + mi * 60 + s) - Int64(offset)
    return Date(timeIntervalSince1970: Double(seconds))
  }

  static func parse(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { buffer in
      var bytes = Array(buffer)
      bytes.append(0)
      return bytes.withUnsafeBufferPointer { parse($0.baseAddress!) }
    }
  }
}

/// Reuses the Swift string for attribute values that repeat (types, units, sources): an
/// export has a few dozen of them over millions of records.
final class Interner {
  private var entries: [(bytes: [UInt8], string: String)] = []

  func string(_ p: UnsafePointer<UInt8>) -> String {
    let length = strlen(UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
    for entry in entries where entry.bytes.count == length {
      if entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, p, length) == 0 }) { return entry.string }
    }
    let string = String(cString: p)
    if entries.count < 256 { entries.append((Array(UnsafeBufferPointer(start: p, count: length)), string)) }
    return string
  }
}
