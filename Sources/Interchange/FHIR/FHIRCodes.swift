import Records

/// The code systems and codes a Vital bundle uses (docs/fhir.md lists them with their sources).
public enum FHIRCodes {
  public static let loinc = "http://loinc.org"
  public static let ucum = "http://unitsofmeasure.org"
  public static let observationCategory = "http://terminology.hl7.org/CodeSystem/observation-category"
  /// HL7 table 0933, the kinds of donation procedure (V2's DON segment).
  public static let donationType = "http://terminology.hl7.org/CodeSystem/v2-0933"
  /// H, L and N of a result against its range.
  public static let interpretation = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation"
  /// The text of a reference range that is the catalogue's default, not the laboratory's.
  static let defaultRange = "default adult range"
  /// Vital's own codes, for what no public code system names as Vital means it.
  public static let vital = "urn:vital:fhir:code"

  /// Where Vital's record ids are kept in `identifier`: one system per kind of record.
  public static func identifierSystem(_ kind: String) -> String { "urn:vital:\(kind)" }

  static func donation(_ kind: DonationKind) -> (code: String, display: String) {
    switch kind {
    case .wholeBlood: ("WBL", "Whole Blood")
    case .doubleRed: ("2RC", "Double Red Cells")
    case .plasma: ("PLS", "Plasma")
    case .platelets: ("PLT", "Platelets")
    }
  }

  static func donationKind(code: String) -> DonationKind? {
    DonationKind.allCases.first { donation($0).code == code }
  }

  static let haemoglobin = (code: "718-7", display: "Hemoglobin [Mass/volume] in Blood")
  static let ferritin = (code: "2276-4", display: "Ferritin [Mass/volume] in Serum or Plasma")
  static let bloodPressure = (code: "85354-9", display: "Blood pressure panel with all children optional")
  static let systolic = (code: "8480-6", display: "Systolic blood pressure")
  static let diastolic = (code: "8462-4", display: "Diastolic blood pressure")
  static let heartRate = (code: "8867-4", display: "Heart rate")
  static let steps = (code: "41950-7", display: "Number of steps in 24 hour Measured")
  static let distance = (code: "41953-1", display: "Walking distance 24 hour Calculated")
  static let bodyWeight = (code: "29463-7", display: "Body weight")
  static let restingHeartRate = (code: "40443-4", display: "Heart rate --resting")
  static let heartRateVariability = (
    code: "80404-7", display: "R-R interval.standard deviation (Heart rate variability)"
  )
  static let oxygenSaturation = (code: "59408-5", display: "Oxygen saturation in Arterial blood by Pulse oximetry")
  static let respiratoryRate = (code: "9279-1", display: "Respiratory rate")
  static let sleepDuration = (code: "93832-4", display: "Sleep duration")
  static let menstrualPeriod = (code: "menstrual-period", display: "Menstrual period (days of flow)")
}
