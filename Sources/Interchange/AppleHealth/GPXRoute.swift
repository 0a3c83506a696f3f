import Foundation
import Records
import Storage

/// Reads a route file of the export (`workout-routes/route_*.gpx`, GPX 1.1 as the Health app
/// writes it) from bytes fed as they are read: every `trkpt` with its time and elevation, in
/// the order written. Stops at `WorkoutRoute.maxPoints`: a file longer than any workout is
/// refused whole rather than kept in part.
final class GPXRoute {
  enum Problem: Error, Equatable {
    case tooManyPoints
    case malformed(String)
    /// A point without a time or outside the globe, or a time before the one before it.
    case badPoint(Int)
  }

  private(set) var points: [RoutePoint] = []
  private var stream: XMLStream!
  private var problem: Problem?
  private var sawGPX = false
  // The point being read.
  private var inPoint = false
  private var latitude: Double?
  private var longitude: Double?
  private var field: Field?
  private var text: [UInt8] = []
  private var time: Date?
  private var elevation: Double?

  private enum Field { case time, elevation }

  init() {
    stream = XMLStream(
      onStart: { [unowned self] name, attributes in self.start(name, attributes) },
      onEnd: { [unowned self] name in self.end(name) },
      onText: { [unowned self] bytes in if self.field != nil { self.text.append(contentsOf: bytes) } })
  }

  func feed(_ bytes: UnsafeRawBufferPointer) throws {
    try parse { try stream.feed(bytes) }
  }

  /// Ends the document: the points, or what was wrong with the file.
  func finish() throws -> [RoutePoint] {
    try parse { try stream.feed(UnsafeRawBufferPointer(start: nil, count: 0), last: true) }
    guard sawGPX else { throw Problem.malformed("not a GPX file") }
    return points
  }

  private func parse(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let error as Problem {
      throw error
    } catch let error as XMLStream.ParseError {
      throw problem ?? Problem.malformed("line \(error.line): \(error.message)")
    }
    if let problem { throw problem }
  }

  private func fail(_ problem: Problem) {
    guard self.problem == nil else { return }
    self.problem = problem
    stream.stop(problem)
  }

  private func start(_ name: UnsafePointer<UInt8>, _ attributes: XMLStream.Attributes) {
    if !sawGPX {
      sawGPX = Bytes.equal(name, "gpx")
      if !sawGPX { fail(.malformed("its root is <\(String(cString: name))>, not <gpx>")) }
      return
    }
    if Bytes.equal(name, "trkpt") {
      inPoint = true
      (latitude, longitude, time, elevation) = (nil, nil, nil, nil)
      attributes.forEach { key, value in
        if Bytes.equal(key, "lat") { latitude = Double(String(cString: value)) }
        if Bytes.equal(key, "lon") { longitude = Double(String(cString: value)) }
      }
    } else if inPoint, Bytes.equal(name, "time") {
      field = .time
    } else if inPoint, Bytes.equal(name, "ele") {
      field = .elevation
    }
  }

  private func end(_ name: UnsafePointer<UInt8>) {
    if let field {
      self.field = nil
      let value = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      text.removeAll(keepingCapacity: true)
      switch field {
      case .time: time = ISO8601.date(from: value)
      case .elevation: elevation = Double(value)
      }
      return
    }
    guard inPoint, Bytes.equal(name, "trkpt") else { return }
    inPoint = false
    guard points.count < WorkoutRoute.maxPoints else { return fail(.tooManyPoints) }
    guard let latitude, let longitude, let time, latitude.isFinite, longitude.isFinite,
      elevation?.isFinite ?? true, time >= (points.last?.time ?? .distantPast)
    else { return fail(.badPoint(points.count + 1)) }
    let point = RoutePoint(time: time, latitude: latitude, longitude: longitude, elevation: elevation)
    guard point.isValid else { return fail(.badPoint(points.count + 1)) }
    points.append(point)
  }
}

extension GPXRoute.Problem {
  var message: String {
    switch self {
    case .tooManyPoints:
      "it holds more than \(WorkoutRoute.maxPoints) points, more than any workout records"
    case .malformed(let reason): "it is not readable GPX (\(reason))"
    case .badPoint(let n): "its point \(n) has no time, a time before the point before it, or a place off the globe"
    }
  }
}
