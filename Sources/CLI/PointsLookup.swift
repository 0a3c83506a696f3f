import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records

/// `vital area locate --points FILE`: every `lat,lon[,label]` row located in one process, read
/// and written a batch at a time, so that a file of any length runs in the same memory.
enum PointsLookup {
  static func run(_ c: AreaContext, file: String, language: Guidelines.Language) throws {
    let handle = try InputFile.open(file)
    defer { if file != "-" { try? handle.close() } }
    let locator = try c.store.pointLocator()
    let write: ([UInt8]) throws -> Void = { FileHandle.standardOutput.write(Data($0)) }
    let json = c.app.output.json
    var first = true
    if json { try write(Array("[".utf8)) }
    do {
      try CSV.forEachBatch(handle) { records in
        let results = try PointLookup.points(records, headerAllowed: first).map { locator.lookup($0.0, label: $0.1) }
        if json {
          let items = results.map { r in
            JSON.object(
              [("lat", .double(r.point.lat)), ("lon", .double(r.point.lon)), ("label", .optional(r.label))]
                + (c.json(area: r.area, stat: r.stat, phase: r.phase, language: language).members)
            ).serialized(pretty: false)
          }
          if !items.isEmpty { try write(Array(((first ? "" : ",") + items.joined(separator: ",")).utf8)) }
        } else {
          try PointLookup.exportCSV(results, header: first, write: write)
        }
        first = false
      }
    } catch let error as CSV.ParseError {
      throw AreaError.badPointsFile(line: 0, reason: error.description)
    }
    if json {
      try write(Array("]\n".utf8))
    } else if first {
      try PointLookup.exportCSV([], header: true, write: write)
    }
  }
}

extension JSON {
  /// An object's members, to extend it.
  var members: [(String, JSON)] {
    if case .object(let m) = self { return m }
    return []
  }
}
