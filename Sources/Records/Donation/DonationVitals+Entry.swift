import Foundation

extension DonationVitals {
  /// The figures as a person types them, in `--hb 14.2` or a page's `hb` field: text, read
  /// here once for every door. On an edit, '' removes a figure.
  public struct Entry: Sendable, Equatable {
    /// Haemoglobin in g/dL, or in mmol/L as `hbMmol`.
    public var hb: String?
    public var hbMmol: String?
    /// Ferritin in ng/mL.
    public var ferritin: String?
    /// Blood pressure as `120/80`.
    public var bp: String?
    /// Beats per minute.
    public var pulse: String?

    public init(
      hb: String? = nil, hbMmol: String? = nil, ferritin: String? = nil, bp: String? = nil, pulse: String? = nil
    ) {
      self.hb = hb
      self.hbMmol = hbMmol
      self.ferritin = ferritin
      self.bp = bp
      self.pulse = pulse
    }

    public var isEmpty: Bool { hb == nil && hbMmol == nil && ferritin == nil && bp == nil && pulse == nil }

    /// The figures given, read and checked against their ranges.
    public func parsed() throws -> DonationVitals { try figures().validated() }

    /// The figures given, read but not yet checked against their ranges: a figure that is not
    /// a number is an `EntryError`.
    public func figures() throws -> DonationVitals {
      if hb != nil && hbMmol != nil { throw EntryError.haemoglobinTwice }
      var vitals = DonationVitals(
        haemoglobin: try Self.number(hb, "--hb"), ferritin: try Self.number(ferritin, "--ferritin"),
        pulse: try Self.whole(pulse, "--pulse"))
      if let mmol = try Self.number(hbMmol, "--hb-mmol") {
        vitals.haemoglobin = DonationVitals.haemoglobin(millimolesPerLitre: mmol)
      }
      if let bp, Self.given(bp) {
        do {
          (vitals.systolic, vitals.diastolic) = try DonationVitals.pressure(bp)
        } catch let error as VitalsError {
          throw EntryError.pressure(error.description)
        }
      }
      return vitals
    }

    /// The figures an edit removes (`hb`, `ferritin`, `bp`, `pulse`): those given as ''.
    public var cleared: Set<String> {
      var names: Set<String> = []
      if hb == "" || hbMmol == "" { names.insert("hb") }
      if ferritin == "" { names.insert("ferritin") }
      if bp == "" { names.insert("bp") }
      if pulse == "" { names.insert("pulse") }
      return names
    }

    private static func given(_ text: String?) -> Bool { !(text ?? "").trimmingCharacters(in: .whitespaces).isEmpty }

    private static func number(_ text: String?, _ option: String) throws -> Double? {
      guard let text, given(text) else { return nil }
      // A decimal comma is how much of Europe writes 14,2, and what its phone keyboards offer.
      let written = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
      guard let value = Double(written), value.isFinite else {
        throw EntryError.notANumber(option)
      }
      return value
    }

    private static func whole(_ text: String?, _ option: String) throws -> Int? {
      guard let text, given(text) else { return nil }
      guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else { throw EntryError.notWhole(option) }
      return value
    }
  }

  /// A figure that does not read as one: a usage error on the command line, a field's error on
  /// a page. The text typed is not repeated (it may be a health value).
  public enum EntryError: Error, Equatable, CustomStringConvertible {
    case notANumber(String)
    case notWhole(String)
    case haemoglobinTwice
    case pressure(String)

    public var description: String {
      switch self {
      case .notANumber(let option): return "\(option) takes a number"
      case .notWhole(let option): return "\(option) takes a whole number"
      case .haemoglobinTwice: return "give haemoglobin once: --hb (g/dL) or --hb-mmol (mmol/L)"
      case .pressure(let message): return message
      }
    }

    /// The option or field the error is about, without its dashes: `hb`, `bp`.
    public var field: String {
      switch self {
      case .notANumber(let option), .notWhole(let option):
        return option == "--hb-mmol" ? "hb" : String(option.dropFirst(2))
      case .haemoglobinTwice: return "hb"
      case .pressure: return "bp"
      }
    }
  }
}
