import Core
import Foundation
import Records
import Storage

/// A route as GPX 1.1 (https://www.topografix.com/GPX/1/1/): one track, one segment, each point
/// with its elevation and time, as the Health app's own route files have them.
public enum GPXDocument {
  /// Writes the document in pieces through `write`, a few hundred points at a time.
  public static func write(
    _ points: [RoutePoint], name: String, type: String, write: (String) throws -> Void
  ) throws {
    let start = points.first.map { ISO8601.string(from: $0.time) } ?? ""
    try write(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="Vital" xmlns="http://www.topografix.com/GPX/1/1" \
      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
      xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
       <metadata><name>\(text(name))</name><time>\(start)</time></metadata>
       <trk>
        <name>\(text(name))</name>
        <type>\(text(type))</type>
        <trkseg>

      """)
    var chunk = ""
    for (i, point) in points.enumerated() {
      chunk += "   <trkpt lat=\"\(RoutePoint.decimal(point.latitude, places: 9))\" "
      chunk += "lon=\"\(RoutePoint.decimal(point.longitude, places: 9))\">"
      if let elevation = point.elevation { chunk += "<ele>\(RoutePoint.decimal(elevation, places: 6))</ele>" }
      chunk += "<time>\(ISO8601.string(from: point.time))</time></trkpt>\n"
      if i % 500 == 499 {
        try write(chunk)
        chunk = ""
      }
    }
    try write(chunk + "  </trkseg>\n </trk>\n</gpx>\n")
  }

  /// Escaped, without the control characters XML 1.0 cannot hold.
  static func text(_ value: String) -> String {
    HTMLText.escape(String(value.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" || $0 == "\n" }))
  }
}
