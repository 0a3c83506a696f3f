/// Where reminders come from. Each can be switched off; cycle reminders start off, since a
/// notification on a shared screen can reveal them.
public enum ReminderSource: String, CaseIterable, Sendable {
  case donation, medication, cycle, area

  public var enabledByDefault: Bool { self != .cycle }
}
