import ArgumentParser
import CLIApp
import CLICore
import Core
import Foundation
import Records

extension Vital.Labs {
  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "One result, with its range, the value as written, and its note.",
      discussion: """
        Examples:
          vital labs show 3f2a91c0
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The result's id, or its first characters (see 'vital labs list').") var id: String

    func run() async throws {
      let c = try LabsContext(global)
      let r = try c.find(id)
      let sex = try c.sex
      try c.app.output.show(c.json(r, sex: sex)) {
        let test = c.test(r)
        var lines = ["\(test?.name ?? r.test)  \(c.value(r))  \(c.when(r.at))"]
        if let test { lines.append("  LOINC      \(test.loinc)") }
        if let range = r.range(test, sex: sex) {
          let flag = r.flag(test, sex: sex).map { $0 == .normal ? "within" : $0 == .high ? "above (H)" : "below (L)" }
          lines.append(
            "  range      \(LabsContext.range(range.low, range.high, decimals: test?.decimals ?? 2)) "
              + "(\(range.ownRange ? "the laboratory's" : "default, \(test?.rangeSourceName ?? "")")), \(flag ?? "")")
        }
        if let unit = r.recordedUnit, let recorded = r.recorded {
          lines.append("  written    \(HealthJSON.text(recorded)) \(unit)")
        }
        if let donation = r.donationID {
          lines.append(
            "  donation   \(donation.prefix(8))\(r.lab.map { ", \($0)" } ?? "") ('vital donor show \(donation.prefix(8))')"
          )
        } else if let lab = r.lab {
          lines.append("  lab        \(lab)")
        }
        if let note = r.note { lines.append("  note       \(note)") }
        lines.append("  id         \(r.id)")
        return lines.joined(separator: "\n")
      }
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: "Correct a result: its value, unit, time, laboratory, range or note.",
      discussion: """
        What you leave out stays as it was.

        Examples:
          vital labs edit 3f2a91c0 --value 38
          vital labs edit 3f2a91c0 --value 5.2 --unit mmol/L --range 3.9-5.5
          vital labs edit 3f2a91c0 --at 2026-11-19
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The result's id, or its first characters (see 'vital labs list').") var id: String
    @Option(help: "The value (128/82 for blood pressure).") var value: String?
    @Option(help: "The value's unit.") var unit: String?
    @OptionGroup var entry: LabEntryOptions

    func validate() throws {
      if value == nil, unit == nil, entry.at == nil, entry.lab == nil, entry.range == nil, entry.note == nil {
        throw ValidationError("say what to change: --value, --unit, --at, --lab, --range or --note")
      }
      if unit != nil, value == nil { throw ValidationError("--unit needs --value: the number in that unit") }
    }

    func run() async throws {
      let c = try LabsContext(global)
      if let reference = c.store.donationReference(id) {
        throw LabError.partOfDonation(reference.donation, option: reference.option, value: value ?? "VALUE")
      }
      let old = try c.store.find(id)
      // Without --value, the value as it was written; without --unit, in the unit it was written in.
      let written = old.recordedUnit.flatMap { unit in old.recorded.map { (HealthJSON.text($0), unit) } }
      let kept = [old.value, old.second].compactMap { $0 }.map(HealthJSON.text).joined(separator: "/")
      let new = try c.store.edit(
        old.id,
        to: LabEntry(
          test: old.test, value: value ?? written?.0 ?? kept,
          unit: unit ?? written?.1 ?? c.store.catalogue.test(old.test)?.unit,
          at: try entry.at.map { try c.app.instant($0, bareDateIsMidnight: true) } ?? old.at, lab: entry.lab,
          range: entry.range, note: entry.note),
        force: entry.force)
      let sex = try c.sex
      try c.app.output.show(c.json(new, sex: sex)) { "edited: \(c.line(new, sex: sex))" }
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Delete a result ('vital undo' brings it back).",
      discussion: """
        Examples:
          vital labs delete 3f2a91c0 --yes
        """, aliases: ["remove", "rm"])
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The result's id, or its first characters (see 'vital labs list').") var id: String
    @Flag(help: "Do not ask.") var yes = false

    func run() async throws {
      let c = try LabsContext(global)
      if let reference = c.store.donationReference(id) {
        throw LabError.partOfDonation(reference.donation, option: reference.option, value: "''")
      }
      let r = try c.find(id)
      let sex = try c.sex
      guard try Confirmation.ask("Delete \(c.line(r, sex: sex))?", yes: yes) else {
        throw Confirmation.Refused(description: "nothing deleted")
      }
      try c.store.delete(r.id)
      try c.app.output.show(c.json(r, sex: sex)) { "deleted: \(c.line(r, sex: sex))" }
    }
  }
}
