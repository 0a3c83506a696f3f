import ArgumentParser
import Records

/// What the blood service measured, as `donor record`, `donor complete` and `donor edit` take
/// it. On `edit`, '' removes a figure.
struct DonationVitalsOptions: ParsableArguments {
  @Option(name: .customLong("hb"), help: "Haemoglobin in g/dL, e.g. 14.2.") var hb: String?
  @Option(name: .customLong("hb-mmol"), help: "Haemoglobin in mmol/L instead, e.g. 8.8.") var hbMmol: String?
  @Option(help: "Ferritin in ng/mL (the same figure as µg/L).") var ferritin: String?
  @Option(name: .customLong("bp"), help: "Blood pressure SYS/DIA in mmHg, e.g. 120/80.") var bp: String?
  @Option(help: "Pulse in beats per minute.") var pulse: String?

  func validate() throws {
    if hb != nil && hbMmol != nil { throw ValidationError("give haemoglobin once: --hb (g/dL) or --hb-mmol (mmol/L)") }
    _ = try figures()
  }

  /// The figures given, checked against their ranges (a figure out of range is a value to
  /// correct, not a usage error: it fails in `run` with one `error:` line).
  func parsed() throws -> DonationVitals { try figures().validated() }

  /// The figures given, read but not yet checked.
  private func figures() throws -> DonationVitals {
    func number(_ text: String?, _ option: String) throws -> Double? {
      guard let text, !text.isEmpty else { return nil }
      guard let value = Double(text), value.isFinite else { throw ValidationError("\(option) takes a number") }
      return value
    }
    func whole(_ text: String?, _ option: String) throws -> Int? {
      guard let text, !text.isEmpty else { return nil }
      guard let value = Int(text) else { throw ValidationError("\(option) takes a whole number") }
      return value
    }
    var vitals = DonationVitals(
      haemoglobin: try number(hb, "--hb"), ferritin: try number(ferritin, "--ferritin"),
      pulse: try whole(pulse, "--pulse"))
    if let mmol = try number(hbMmol, "--hb-mmol") {
      vitals.haemoglobin = DonationVitals.haemoglobin(millimolesPerLitre: mmol)
    }
    if let bp, !bp.isEmpty {
      do {
        (vitals.systolic, vitals.diastolic) = try DonationVitals.pressure(bp)
      } catch let error as VitalsError {
        throw ValidationError(error.description)
      }
    }
    return vitals
  }

  /// The figures an edit removes: the options given as ''.
  var cleared: Set<String> {
    var names: Set<String> = []
    if hb == "" || hbMmol == "" { names.insert("hb") }
    if ferritin == "" { names.insert("ferritin") }
    if bp == "" { names.insert("bp") }
    if pulse == "" { names.insert("pulse") }
    return names
  }

  var isEmpty: Bool { hb == nil && hbMmol == nil && ferritin == nil && bp == nil && pulse == nil }
}
