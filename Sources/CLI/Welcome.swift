import CLIApp
import CLICore

/// What a new user sees on the first run of plain `vital`.
enum Welcome {
  static let firstRunText = """
    Welcome to Vital, your health record in the terminal.

    Everything stays in one SQLite file in your data folder; nothing leaves this machine
    unless you set up sync with your own server. The file is not encrypted: only its file
    modes keep other users out, so keep your disk encrypted.

    Vital keeps:
      - blood donations: eligibility, appointments, reminders, history
      - your cycle: periods and predictions with ranges
      - medications: schedules, doses taken, stock
      - Apple Health exports and step or distance goals
      - regional incidence figures for places you watch

    Start with:
      vital account register --email you@example.org   create your local account
      vital profile set --blood-type A+                 tell Vital about you
      vital donor eligibility                           see when you may donate next

    Every command has --help, and --json for scripts.
    """

  static let firstRun: JSON = .object([
    ("welcome", .string("Welcome to Vital, your health record in the terminal.")),
    (
      "at_rest",
      .string("The database file is not encrypted; its file modes keep other users out. Keep your disk encrypted.")
    ),
    (
      "next_steps",
      .array([
        .string("vital account register --email you@example.org"),
        .string("vital profile set --blood-type A+"),
        .string("vital donor eligibility"),
      ])
    ),
  ])
}
