import Foundation
import Records
import Testing

/// The catalogue's conversions against values from the literature, written here independently of
/// its factors, and its shape: every test coded, named once, its ranges inside what a body can be.
@Suite struct LabCatalogueTests {
  let catalogue = LabCatalogue.shipped

  /// `value` in `unit` converted to `to` through the catalogue's canonical unit.
  func convert(_ test: String, _ value: Double, _ unit: String, to: String) throws -> Double {
    let t = try #require(catalogue.test(test), "\(test)")
    let canonical = try #require(t.canonical(value, unit: unit), "\(test): \(unit)")
    // Back out of the canonical unit: v = (canonical - offset) / factor.
    if let back = t.canonical(1, unit: to), let zero = t.canonical(0, unit: to) {
      return (canonical - zero) / (back - zero)
    }
    Issue.record("\(test) has no unit \(to)")
    return .nan
  }

  @Test(arguments: [
    // Each from a published table, not from the catalogue:
    // glucose, 180.16 g/mol: 100 mg/dL = 5.55 mmol/L (ADA Standards of Care, unit conversion).
    ("glucose", 100.0, "mg/dL", "mmol/L", 5.55, 0.01),
    // cholesterol, 386.65 g/mol: 200 mg/dL = 5.17 mmol/L (NCEP ATP III, SI conversion 0.02586).
    ("cholesterol", 200.0, "mg/dL", "mmol/L", 5.17, 0.01),
    // haemoglobin, monomer 16,114.5 g/mol: 14 g/dL = 8.69 mmol/L (IFCC; Dutch labs report mmol/L).
    ("hb", 14.0, "g/dL", "mmol/L", 8.69, 0.01),
    // 25-OH vitamin D, 400.64 g/mol: 30 ng/mL = 74.9 nmol/L (Endocrine Society 2011, × 2.496).
    ("vitamin-d", 30.0, "ng/mL", "nmol/L", 74.9, 0.1),
    // creatinine, 113.12 g/mol: 1 mg/dL = 88.4 µmol/L (KDIGO 2012, conversion table).
    ("creatinine", 1.0, "mg/dL", "umol/L", 88.4, 0.1),
    // HbA1c, IFCC = (NGSP − 2.15) × 10.929: 6.5 % = 48 mmol/mol (ADA/EASD/IFCC consensus 2010).
    ("hba1c", 6.5, "%", "mmol/mol", 48, 0.5),
    // triglycerides, as triolein 885.7 g/mol: 150 mg/dL = 1.7 mmol/L (NCEP ATP III).
    ("triglycerides", 150.0, "mg/dL", "mmol/L", 1.69, 0.01),
    // vitamin B12, 1355.37 g/mol: 200 pg/mL = 148 pmol/L (BCSH 2014 guideline's threshold).
    ("vitamin-b12", 200.0, "pg/mL", "pmol/L", 147.6, 0.2),
    // bilirubin, 584.66 g/mol: 1 mg/dL = 17.1 µmol/L (NICE jaundice guidance's conversion).
    ("bilirubin", 1.0, "mg/dL", "umol/L", 17.1, 0.05),
    // body temperature: 98.6 °F = 37.0 °C (the definition of the two scales).
    ("temperature", 98.6, "°F", "°C", 37.0, 0.01),
    // weight: 150 lb = 68.04 kg (the international pound, 0.45359237 kg exactly).
    ("weight", 150.0, "lb", "kg", 68.04, 0.005),
  ])
  func everyConversionMatchesTheLiterature(
    _ c: (test: String, value: Double, from: String, to: String, expected: Double, tolerance: Double)
  ) throws {
    let got = try convert(c.test, c.value, c.from, to: c.to)
    #expect(abs(got - c.expected) <= c.tolerance, "\(c.test): \(c.value) \(c.from) = \(got) \(c.to), not \(c.expected)")
  }

  @Test func everyTestIsCodedNamedOnceAndRangedWithinWhatABodyCanBe() throws {
    #expect(catalogue.tests.filter { $0.kind == .lab }.count >= 40)
    for measurement in ["weight", "blood-pressure", "pulse", "temperature", "blood-glucose", "spo2"] {
      #expect(catalogue.test(measurement)?.kind == .measurement, "\(measurement)")
    }
    for test in catalogue.tests {
      #expect(Self.loincCheckDigitHolds(test.loinc), "\(test.id): LOINC \(test.loinc)")
      #expect(test.plausible.count == 2 && test.plausible[0] < test.plausible[1], "\(test.id)")
      #expect(!test.rangeSource.isEmpty, "\(test.id) names where its ranges come from")
      for range in test.ranges {
        for end in [range.low, range.high].compactMap({ $0 }) {
          #expect(end >= test.plausible[0] && end <= test.plausible[1], "\(test.id): \(end) outside plausible")
        }
      }
      for unit in test.units { #expect(unit.factor > 0 && !unit.basis.isEmpty, "\(test.id): \(unit.unit)") }
    }
    // A test is found by its aliases, in any case.
    #expect(catalogue.test("Haemoglobin")?.id == "hb" && catalogue.test("HGB")?.id == "hb")
    #expect(catalogue.nearest(to: "ferriten").first == "ferritin")
  }

  /// A value below zero is no measurement, even forced (the command line reads `-5` as an
  /// option, so a CSV row is where one comes from).
  @Test func aNegativeValueIsRefusedEvenForced() throws {
    let entry = LabEntry(test: "ferritin", value: "-5", unit: "ng/mL", at: Date())
    #expect(throws: LabError.badValue("-5", test: "ferritin")) {
      try entry.result(id: "x", catalogue: catalogue, force: true)
    }
    let pair = LabEntry(test: "bp", value: "128/-82", at: Date())
    #expect(throws: LabError.badValue("-82", test: "blood-pressure")) {
      try pair.result(id: "x", catalogue: catalogue, force: true)
    }
  }

  /// LOINC's check digit: the mod-10 algorithm over the code's digits (loinc.org, "LOINC check digit").
  static func loincCheckDigitHolds(_ code: String) -> Bool {
    let parts = code.split(separator: "-")
    guard parts.count == 2, let check = Int(parts[1]), parts[0].allSatisfy(\.isNumber) else { return false }
    let digits = parts[0].compactMap { $0.wholeNumberValue }
    var sum = 0
    for (i, d) in digits.reversed().enumerated() {
      if i % 2 == 0 {
        let doubled = d * 2
        sum += doubled / 10 + doubled % 10
      } else {
        sum += d
      }
    }
    return (10 - sum % 10) % 10 == check
  }
}
