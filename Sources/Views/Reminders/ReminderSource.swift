/// Where reminders come from. Each can be switched off; cycle reminders start off, since a
/// notification on a shared screen can reveal them, and so does the morning temperature.
public enum ReminderSource: String, CaseIterable, Sendable {
  case donation, medication, cycle, area, temperature

  public var enabledByDefault: Bool { self != .cycle && self != .temperature }

  /// Sources that remind at a time of day a person chooses, and the time until they do.
  public var defaultTime: String? { self == .temperature ? "06:30" : nil }
}
