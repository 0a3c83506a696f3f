import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital.Labs {
  struct Trend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "trend", abstract: "One test over the years: every value in one unit, against its range.",
      discussion: """
        Each result is a row: its value on one scale (●), the reference range beside it ([ ]), \
        and H or L where it is above or below. The laboratory's own range, where a result has one, \
        is the one it is read against.

        Examples:
          vital labs trend ferritin
          vital labs trend hb --years 20 --json
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The test: its id or a name ('vital labs tests').") var test: String
    @Option(help: "The last N years.") var years = 5

    func validate() throws {
      guard (1...100).contains(years) else { throw ValidationError("--years must be from 1 to 100") }
    }

    func run() async throws {
      let c = try LabsContext(global)
      let test = try c.store.catalogue.require(self.test)
      let from = c.app.calendar.date(byAdding: .year, value: -years, to: c.app.now)
      let points = try c.trend(test, from: from ?? .distantPast)
      let sex = try c.sex
      let range = test.range(for: sex)
      // Built only for --json: 240 results' times in ISO 8601 are a third of a text trend's work.
      let json = {
        JSON.object([
          ("test", .string(test.id)), ("name", .string(test.name)), ("loinc", .string(test.loinc)),
          ("unit", .string(test.unit)),
          (
            "range",
            range.map {
              .object([
                ("low", $0.low.map(JSON.double) ?? .null), ("high", $0.high.map(JSON.double) ?? .null),
                ("sex", .string($0.sex)), ("source", .string(test.rangeSource)),
              ])
            } ?? .null
          ),
          ("results", .array(points.map { c.json($0, sex: sex) })),
        ])
      }
      try c.app.output.show(json()) {
        guard !points.isEmpty else {
          return "No \(test.name) results in the last \(HumanText.count(years, "year")); "
            + "add one with 'vital labs add \(test.id) VALUE\(test.units.isEmpty ? "" : " UNIT")'."
        }
        return Self.chart(points, test: test, sex: sex, c)
      }
    }

    /// One row per point on a scale shared by the values and the ranges.
    static func chart(_ points: [LabTrendPoint], test: LabTest, sex: Sex?, _ c: LabsContext) -> String {
      let width = 40
      let results = points.map(\.result)
      let ranges = results.map { $0.range(test, sex: sex) }
      let seconds = results.map { $0.secondRange(test, sex: sex) }
      let ends =
        results.flatMap { [$0.value] + [$0.second].compactMap { $0 } }
        + ranges.flatMap { [$0?.low, $0?.high].compactMap { $0 } }
        + seconds.flatMap { [$0?.low, $0?.high].compactMap { $0 } }
      let low = ends.min() ?? 0
      let high = ends.max() ?? 1
      // Every end is on the scale; the bounds are a guard all the same.
      let column = { (v: Double) in
        high > low ? min(max(Int(((v - low) / (high - low) * Double(width - 1)).rounded()), 0), width - 1) : width / 2
      }
      let number = { (v: Double) in HumanText.fixed(v, decimals: test.decimals) }
      // A pair's reference is its two numbers' (systolic/diastolic).
      let references = (test.isPair ? ["systolic", "diastolic"] : [nil]).compactMap {
        test.range(for: sex, component: $0).map { LabsContext.range($0.low, $0.high, decimals: test.decimals) }
      }
      var lines = [
        "\(test.name) (\(test.displayUnit))"
          + (references.isEmpty
            ? "" : ", reference \(references.joined(separator: "/")) (\(test.rangeSourceName))")
      ]
      for (point, range) in zip(points, ranges) {
        let r = point.result
        var bar = Array(repeating: Mark.none, count: width)
        let second = r.secondRange(test, sex: sex).map { ($0.low, $0.high) }
        for case (let low, let high)? in [range.map { ($0.low, $0.high) }, second] where low != nil || high != nil {
          let from = low.map(column) ?? 0
          let to = high.map(column) ?? width - 1
          for i in from...max(from, to) { bar[i] = .range }
          if low != nil { bar[from] = .low }
          if high != nil { bar[to] = .high }
        }
        for v in [r.value] + [r.second].compactMap({ $0 }) { bar[column(v)] = point.isImported ? .imported : .result }
        let flag = r.flag(test, sex: sex).flatMap { $0 == .normal ? nil : $0.rawValue } ?? " "
        let value = number(r.value) + (r.second.map { "/" + number($0) } ?? "")
        let drawn = Vital.Labs.text(bar)
        let source: String = c.source(point, ownRange: range?.ownRange == true)
        lines.append(
          HumanText.padded(c.when(r.at), to: 17) + HumanText.padded(value, to: 10) + flag + "  |" + drawn + "|  "
            + source)
      }
      lines.append(String(repeating: " ", count: 30) + number(low) + " … " + number(high) + " " + test.displayUnit)
      if points.contains(where: \.isImported) {
        lines.append("● a result  ○ an imported day's mean")
      }
      return lines.joined(separator: "\n")
    }
  }

  /// What a column of a trend's row shows.
  enum Mark: Int {
    case none, range, low, high, result, imported

    static let utf8: [[UInt8]] = [" ", "·", "[", "]", "●", "○"].map { Array($0.utf8) }
  }

  /// A row of marks as text, through their UTF-8: `String([Character])` costs more than the
  /// rest of a trend's row.
  static func text(_ marks: [Mark]) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(marks.count * 3)
    for mark in marks { bytes.append(contentsOf: Mark.utf8[mark.rawValue]) }
    return String(decoding: bytes, as: UTF8.self)
  }

  struct Tests: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "tests", abstract: "The catalogue: every test Vital knows, its units and default range.",
      discussion: """
        Examples:
          vital labs tests
          vital labs tests --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let app = try App(global)
      let catalogue = LabCatalogue.shipped
      let json = JSON.array(
        catalogue.tests.map { t in
          .object([
            ("id", .string(t.id)), ("name", .string(t.name)), ("loinc", .string(t.loinc)),
            ("kind", .string(t.kind.rawValue)),
            ("aliases", .array(t.aliases.map(JSON.string))), ("unit", .string(t.unit)),
            (
              "units",
              .array(
                t.units.map {
                  .object([
                    ("unit", .string($0.unit)), ("factor", .double($0.factor)),
                    ("offset", $0.offset.map(JSON.double) ?? .null),
                  ])
                })
            ),
            (
              "ranges",
              .array(
                t.ranges.map {
                  .object([
                    ("sex", .string($0.sex)), ("low", $0.low.map(JSON.double) ?? .null),
                    ("high", $0.high.map(JSON.double) ?? .null),
                  ])
                })
            ),
            ("range_source", .string(t.rangeSource)),
          ])
        })
      try app.output.show(json) {
        var table = TextTable(["test", "name", "unit", "also", "range", "LOINC"])
        for t in catalogue.tests {
          let ranges = t.ranges.map {
            ($0.sex == "any" ? "" : "\($0.sex.prefix(1)) ") + LabsContext.range($0.low, $0.high, decimals: t.decimals)
          }
          table.add([
            t.id, t.name, t.displayUnit, t.units.map(\.display).joined(separator: ", "), ranges.joined(separator: ", "),
            t.loinc,
          ])
        }
        return table.text
      }
    }
  }
}
