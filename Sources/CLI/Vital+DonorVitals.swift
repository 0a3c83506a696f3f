import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records

extension Vital.Donor {
  struct VitalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "vitals",
      abstract: "What was measured at your donations: haemoglobin, ferritin, blood pressure, pulse, and the trend.",
      discussion: """
        Oldest first. Haemoglobin is shown against the least your region's service takes for \
        your sex (the stricter figure when your profile has no sex); figures come from \
        'vital donor add' and 'vital donor complete' (--hb, --ferritin, --bp, --pulse).

        Examples:
          vital donor vitals
          vital donor vitals --json
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let c = try DonorContext(global)
      let profile = try c.profile
      let history = VitalsHistory(
        donations: try c.store.history(), rules: .forRegion(profile.region), sex: profile.sex)
      let json = JSON.object([
        ("minimum_hb_g_dl", .double(history.minimumHaemoglobin)),
        ("region", .string(profile.region.rawValue)),
        ("hb_g_dl_per_year", history.haemoglobinPerYear.map { .double($0) } ?? .null),
        ("ferritin_ng_ml_per_year", history.ferritinPerYear.map { .double($0) } ?? .null),
        (
          "donations",
          .array(
            history.rows.map { row in
              .object([
                ("id", .string(row.donation.id)), ("completed_at", c.app.iso(row.donation.completedAt)),
                ("kind", .string(row.donation.kind.rawValue)), ("vitals", c.app.json(row.donation.vitals)),
                ("hb_change", row.haemoglobinChange.map { .double($0) } ?? .null),
                ("below_minimum", .bool(row.belowMinimum)),
              ])
            })
        ),
      ])
      try c.app.output.show(json) { text(history, c.app) }
    }

    private func text(_ history: VitalsHistory, _ app: App) -> String {
      guard !history.rows.isEmpty else {
        return
          "No measurements yet; add them with 'vital donor complete --hb 14.1 --bp 124/78' or 'vital donor edit ID --hb 14.1'."
      }
      var table = TextTable(["id", "when", "kind", "Hb g/dL", "change", "ferritin ng/mL", "BP mmHg", "pulse"])
      for row in history.rows {
        let v = row.donation.vitals
        let hb = v.haemoglobin.map { format($0) + (row.belowMinimum ? " (low)" : "") } ?? "-"
        table.add([
          String(row.donation.id.prefix(8)), app.human(row.donation.completedAt), row.donation.kind.rawValue, hb,
          row.haemoglobinChange.map { ($0 > 0 ? "+" : "") + format($0) } ?? "-",
          v.ferritin.map(format) ?? "-",
          v.systolic.flatMap { s in v.diastolic.map { "\(s)/\($0)" } } ?? "-", v.pulse.map(String.init) ?? "-",
        ])
      }
      var lines = [table.text, ""]
      lines.append("least haemoglobin your service takes: \(format(history.minimumHaemoglobin)) g/dL")
      if let slope = history.haemoglobinPerYear {
        lines.append("haemoglobin trend: \(slope > 0 ? "+" : "")\(format(slope)) g/dL a year")
      }
      if let slope = history.ferritinPerYear {
        lines.append("ferritin trend: \(slope > 0 ? "+" : "")\(format(slope)) ng/mL a year")
      }
      if history.haemoglobinPerYear == nil, history.rows.count >= 2 {
        lines.append("trend: the figures span less than half a year, too short to say where they are going")
      }
      return lines.joined(separator: "\n")
    }

    private func format(_ value: Double) -> String {
      value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }
  }
}
