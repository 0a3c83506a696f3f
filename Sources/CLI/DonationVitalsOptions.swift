import ArgumentParser
import Records

/// What the blood service measured, as `donor record`, `donor complete` and `donor edit` take
/// it. On `edit`, '' removes a figure. Read by `DonationVitals.Entry`, as a page's fields are.
struct DonationVitalsOptions: ParsableArguments {
  @Option(name: .customLong("hb"), help: "Haemoglobin in g/dL, e.g. 14.2.") var hb: String?
  @Option(name: .customLong("hb-mmol"), help: "Haemoglobin in mmol/L instead, e.g. 8.8.") var hbMmol: String?
  @Option(help: "Ferritin in ng/mL (the same figure as µg/L).") var ferritin: String?
  @Option(name: .customLong("bp"), help: "Blood pressure SYS/DIA in mmHg, e.g. 120/80.") var bp: String?
  @Option(help: "Pulse in beats per minute.") var pulse: String?

  var entry: DonationVitals.Entry {
    DonationVitals.Entry(hb: hb, hbMmol: hbMmol, ferritin: ferritin, bp: bp, pulse: pulse)
  }

  /// A figure that does not read is a usage error; one out of range is a value to correct,
  /// which fails in `run` with one `error:` line.
  func validate() throws {
    do {
      _ = try entry.figures()
    } catch let error as DonationVitals.EntryError {
      throw ValidationError(error.description)
    }
  }

  func parsed() throws -> DonationVitals { try entry.parsed() }

  var cleared: Set<String> { entry.cleared }

  var isEmpty: Bool { entry.isEmpty }
}
