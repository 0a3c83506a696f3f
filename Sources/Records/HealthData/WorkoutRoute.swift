import Core
import Foundation
import Replication
import Storage

/// A stretch of a workout's route: at most `pointsPerPart` points in time order. A route is kept
/// in parts so that each synced value stays well under a record's limit however long the
/// workout; parts are numbered from 0 and a route is whole only with all of them.
public struct WorkoutRoute: Equatable, Sendable {
  public static let pointsPerPart = 10_000
  /// One second apart for two days and more: a GPX file longer than this is not a workout's.
  public static let maxPoints = 200_000

  public var id = ""
  public var workoutID = ""
  public var part = 0
  /// The first point's time: the points' times are milliseconds after it.
  public var start = Date(timeIntervalSince1970: 0)
  public var count = 0
  /// Metres climbed within this part, from the last point of the part before.
  public var ascentMetres: Double?
  /// `ms,lat,lon,ele` per line (`RoutePoint.encode`).
  public var points = ""

  public init() {}

  public static func id(workout: String, part: Int) -> String { "\(workout)-r\(part)" }
}

/// A point of a route, as GPX gives it.
public struct RoutePoint: Equatable, Sendable {
  public var time: Date
  public var latitude: Double
  public var longitude: Double
  public var elevation: Double?

  public init(time: Date, latitude: Double, longitude: Double, elevation: Double?) {
    (self.time, self.latitude, self.longitude, self.elevation) = (time, latitude, longitude, elevation)
  }

  public var isValid: Bool {
    (-90...90).contains(latitude) && (-180...180).contains(longitude)
      && (elevation.map { (-1000...10_000).contains($0) } ?? true)
  }

  /// `52.520008`, never `5.2e+01`: GPX numbers are plain decimals, and nine places keep what a
  /// receiver wrote (a nanodegree is under a millimetre).
  public static func decimal(_ value: Double, places: Int) -> String {
    var text = String(format: "%.\(places)f", value)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text == "-0" ? "0" : text
  }
}

extension WorkoutRoute {
  /// A part holding `points` (in time order), its ascent counted from `before`.
  public init(workoutID: String, part: Int, points: [RoutePoint], after before: RoutePoint?) {
    self.init()
    self.id = Self.id(workout: workoutID, part: part)
    self.workoutID = workoutID
    self.part = part
    self.count = points.count
    let first = points.first?.time ?? Date(timeIntervalSince1970: 0)
    self.start = first
    var text = ""
    text.reserveCapacity(points.count * 40)
    var ascent = 0.0
    var climbedFrom = before?.elevation
    for point in points {
      let ms = Int64((point.time.timeIntervalSince(first) * 1000).rounded())
      text +=
        "\(ms),\(RoutePoint.decimal(point.latitude, places: 9)),\(RoutePoint.decimal(point.longitude, places: 9)),"
      if let elevation = point.elevation {
        text += RoutePoint.decimal(elevation, places: 6)
        if let from = climbedFrom, elevation > from { ascent += elevation - from }
        climbedFrom = elevation
      }
      text += "\n"
    }
    self.points = text
    self.ascentMetres = points.contains { $0.elevation != nil } ? ascent : nil
  }

  /// The points, or nil when the text is not what `init(workoutID:part:points:after:)` writes
  /// (another program's, or damaged): a route is shown whole or not at all.
  public func decodedPoints() -> [RoutePoint]? {
    var points: [RoutePoint] = []
    points.reserveCapacity(count)
    for line in self.points.split(separator: "\n", omittingEmptySubsequences: true) {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields.count == 4, let ms = Int64(fields[0]), let lat = Double(fields[1]), let lon = Double(fields[2])
      else { return nil }
      let elevation: Double?
      if fields[3].isEmpty {
        elevation = nil
      } else if let e = Double(fields[3]) {
        elevation = e
      } else {
        return nil
      }
      let point = RoutePoint(
        time: start.addingTimeInterval(Double(ms) / 1000), latitude: lat, longitude: lon, elevation: elevation)
      guard point.isValid, lat.isFinite, lon.isFinite else { return nil }
      points.append(point)
    }
    return points.count == count ? points : nil
  }
}

extension WorkoutRoute {
  public static let shape = RecordShape<WorkoutRoute>(
    blank: { WorkoutRoute() },
    [
      .text("id", \.id), .text("workout_id", \.workoutID, rule: .text(maxBytes: 200)),
      .init(
        "part", "INTEGER NOT NULL", rule: .integer(0...Int64(maxPoints / pointsPerPart)), \.part,
        write: { .integer(Int64($0)) }, read: { Int.fromDatabaseValue($0) }),
      .instant("start", \.start, years: 1970...2200),
      .init(
        "count", "INTEGER NOT NULL", rule: .integer(1...Int64(pointsPerPart)), \.count,
        write: { .integer(Int64($0)) }, read: { Int.fromDatabaseValue($0) }),
      .number("ascent_m", \.ascentMetres, 0...100_000),
      .text("points", \.points, rule: .text(maxBytes: 1 << 20)),
    ])

  package static let synced = shape.selection(Dataset.workoutRoute.fields)
}
