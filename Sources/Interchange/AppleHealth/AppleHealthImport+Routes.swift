import Foundation
import Records
import Replication
import Storage
import ZIPFoundation

/// Where the export's route files are: beside export.xml in the zip it came in, or in the
/// folder it was unpacked to.
enum RouteOrigin {
  case zip(Archive, folder: String)
  case folder(String)
}

extension AppleHealthImport {
  /// Reads each route the workouts name, one file at a time (memory is bounded by the longest
  /// route kept, `WorkoutRoute.maxPoints`), and adds it in parts. A route that cannot be kept
  /// whole is left out whole and named in the summary; its workout stays.
  func readRoutes() throws {
    guard let origin = routeOrigin, !routes.isEmpty else { return }
    var seen = Set<String>()
    for route in routes where seen.insert(route.workoutID).inserted {
      let file = route.path.hasPrefix("/") ? String(route.path.dropFirst()) : route.path
      let shown = (file as NSString).lastPathComponent
      let points: [RoutePoint]
      guard !file.split(separator: "/").contains("..") else {
        summary.routeProblems.append("\(shown): its path leads outside the export; its workout is kept without a route")
        continue
      }
      do {
        points = try read(file, from: origin)
      } catch let problem as RouteProblem {
        summary.routeProblems.append("\(shown): \(problem.message); its workout is kept without a route")
        continue
      } catch let problem as GPXRoute.Problem {
        summary.routeProblems.append("\(shown): \(problem.message); its workout is kept without a route")
        continue
      }
      try keep(points, workoutID: route.workoutID, shown: shown)
    }
    try flush()
  }

  /// An older export's route, written inside its workout: kept as a file's would be, or left
  /// out whole and named.
  func addInlineRoute(_ workout: WorkoutParts, workoutID: String, start: Date) throws {
    let shown = "the route inside the workout of \(ISO8601.string(from: start))"
    if let problem = workout.inlineProblem {
      summary.routeProblems.append("\(shown): \(problem.message); its workout is kept without a route")
      return
    }
    try keep(workout.inlineRoute, workoutID: workoutID, shown: shown)
  }

  /// Adds a route in parts, whole, or names it (as `shown`) when its points do not fit one.
  private func keep(_ points: [RoutePoint], workoutID: String, shown: String) throws {
    guard !points.isEmpty else { return }
    let parts = Self.parts(of: points, workoutID: workoutID)
    let records = parts.map { ($0.id, WorkoutRoute.shape.values($0, WorkoutRoute.synced)) }
    // Checked before any part is handed on: a route is kept whole or not at all.
    if records.contains(where: { Dataset.workoutRoute.fault(inOrder: $0.1) != nil }) {
      summary.routeProblems.append("\(shown): its points do not fit a route; its workout is kept without a route")
      return
    }
    for (id, values) in records { try add(.workoutRoute, id: id, values) }
    summary.routes += 1
    summary.routePoints += points.count
  }

  static func parts(of points: [RoutePoint], workoutID: String) -> [WorkoutRoute] {
    stride(from: 0, to: points.count, by: WorkoutRoute.pointsPerPart).enumerated().map { part, from in
      let slice = Array(points[from..<min(from + WorkoutRoute.pointsPerPart, points.count)])
      return WorkoutRoute(workoutID: workoutID, part: part, points: slice, after: from > 0 ? points[from - 1] : nil)
    }
  }

  private func read(_ file: String, from origin: RouteOrigin) throws -> [RoutePoint] {
    let gpx = GPXRoute()
    switch origin {
    case .zip(let archive, let folder):
      let path = folder.isEmpty ? file : folder + "/" + file
      guard let entry = archive[path], entry.type == .file else { throw RouteProblem.missing }
      let checksum: CRC32
      do {
        checksum = try archive.extract(entry, bufferSize: 1 << 16) { chunk in
          try chunk.withUnsafeBytes { try gpx.feed($0) }
        }
      } catch let problem as GPXRoute.Problem {
        throw problem
      } catch {
        throw RouteProblem.unreadable("\(error)")
      }
      guard checksum == entry.checksum else { throw RouteProblem.unreadable("its checksum does not match") }
    case .folder(let folder):
      let path = (folder as NSString).appendingPathComponent(file)
      guard let handle = FileHandle(forReadingAtPath: path) else { throw RouteProblem.missing }
      defer { try? handle.close() }
      while true {
        let chunk: Data
        do { chunk = try handle.read(upToCount: 1 << 16) ?? Data() } catch {
          throw RouteProblem.unreadable(error.localizedDescription)
        }
        if chunk.isEmpty { break }
        try chunk.withUnsafeBytes { try gpx.feed($0) }
      }
    }
    return try gpx.finish()
  }
}

enum RouteProblem: Error {
  case missing
  case unreadable(String)

  var message: String {
    switch self {
    case .missing:
      "the export names this route file but does not hold it (import export.zip as the phone gave it, or the folder it was unpacked to, with workout-routes/ beside export.xml)"
    case .unreadable(let reason): "it could not be read (\(reason))"
    }
  }
}
