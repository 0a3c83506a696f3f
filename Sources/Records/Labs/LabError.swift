/// What a lab result cannot be, each with what to do instead.
public enum LabError: Error, Equatable, CustomStringConvertible {
  case catalogue(String)
  case unknownTest(String, nearest: [String])
  case unitNeeded(test: String, units: [String])
  case unknownUnit(String, test: String, units: [String])
  case badValue(String, test: String)
  case pairNeeded(test: String)
  case implausible(test: String, value: String, low: String, high: String)
  case badRange(String)
  case notFound(String)
  case partOfDonation(String, option: String, value: String)
  case badTime(String)
  case ambiguousComma(String)
  case pairOrder(test: String)
  case future(String)

  public var description: String {
    switch self {
    case .catalogue(let why): "the lab test catalogue does not read: \(why)"
    case .unknownTest(let name, let nearest):
      "no test '\(name)' in the catalogue"
        + (nearest.isEmpty ? "" : "; did you mean \(nearest.map { "'\($0)'" }.joined(separator: ", "))?")
        + " ('vital labs tests' lists them all)"
    case .unitNeeded(let test, let units):
      "\(test) comes in several units: give one of \(units.joined(separator: ", ")) after the value"
    case .unknownUnit(let unit, let test, let units):
      "'\(unit)' is not a unit of \(test); it takes \(units.joined(separator: ", "))"
    case .badValue(let text, let test): "'\(text)' is not a value for \(test): give a number of 0 or more, such as 12.5"
    case .pairNeeded(let test): "\(test) is two numbers: give them as 128/82"
    case .implausible(let test, let value, let low, let high):
      "\(value) is outside anything \(test) can be (\(low) to \(high)); check it, or add --force to keep it"
    case .badRange(let text): "--range '\(text)' is not a range: give LOW-HIGH (3.5-5.1), <HIGH or >LOW"
    case .notFound(let id): "no lab result '\(id)'; see 'vital labs list'"
    case .badTime(let text):
      "'\(text)' is not a time: give a date (2026-11-20) or a date and time (2026-11-20 08:10, or with its UTC offset)"
    case .partOfDonation(let id, let option, let value):
      "this result was measured at donation \(id.prefix(8)) and is kept with it: change it there, "
        + "with 'vital donor edit \(id.prefix(8)) \(option) \(value)' ('' removes the figure)"
    case .ambiguousComma(let text):
      "'\(text)' could be read two ways: write a decimal with a point (1.234) and a thousand without a comma (1234)"
    case .pairOrder(let test):
      "\(test) is the higher number first, the lower second (128/82)"
    case .future(let when): "\(when) is still to come: a result is kept once it was measured"
    }
  }
}
