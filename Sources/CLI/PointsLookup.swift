import ArgumentParser
import CLICore
import Foundation
import Health

/// `vital area locate --points FILE`: every `lat,lon[,label]` row located in one process.
enum PointsLookup {
  static func run(_ c: AreaContext, file: String, language: Guidelines.Language) throws {
    let records: [CSV.Record]
    do {
      records = try CSV.parse(try InputFile.read(file, limit: 1 << 30))
    } catch let error as CSV.ParseError {
      throw AreaError.badPointsFile(line: 0, reason: error.description)
    }
    let results = try c.store.locate(try PointLookup.points(records))
    guard c.app.output.json else {
      return try PointLookup.exportCSV(results) { FileHandle.standardOutput.write(Data($0)) }
    }
    Output.write(
      JSON.array(
        results.map { r in
          .object(
            [("lat", .double(r.point.lat)), ("lon", .double(r.point.lon)), ("label", .optional(r.label))]
              + (c.json(area: r.area, stat: r.stat, phase: r.phase, language: language).members))
        }
      ).serialized(pretty: false))
  }
}

extension JSON {
  /// An object's members, to extend it.
  var members: [(String, JSON)] {
    if case .object(let m) = self { return m }
    return []
  }
}
