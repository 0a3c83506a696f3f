import Core
import Foundation
import Records
import Storage
import Views

/// `/`: what plain `vital` prints, as a page. Doses due come with Take and Skip buttons; the
/// rest is read-only here and links nowhere yet.
struct TodayPage {
  let today: TodayView
  let profile: Profile
  let email: String
  let human: HumanText
  /// The browser session's form token, in every form the page draws.
  let formToken: String

  var page: Page { Page(title: "Today", body: body) }

  var body: HTML {
    let date = HumanText.longDate(LocalDate(human.now, in: human.calendar))
    return """
      <p class="lede">\(date) · \(email)</p>
      \(doses)\(cycle)\(goals)\(donor)\(reminders)
      """
  }

  var doses: HTML {
    guard !today.doses.isEmpty else {
      return """
        <section aria-labelledby="doses"><h2 id="doses">Doses due</h2><p class="quiet">Nothing due now.</p></section>

        """
    }
    let items = today.doses.map { d -> HTML in
      let time = Self.clock(d.scheduledAt, human.calendar)
      let state: HTML = d.overdue ? "<span class=\"badge late\">overdue</span>" : "<span class=\"badge\">due</span>"
      return """
        <li data-id="\(d.medicationID)"><span class="time">\(time)</span> <span class="name">\(d.medication)</span> \(state)
        <span class="actions">\(form("/meds/take", d, time, "Take", primary: true))\(form("/meds/skip", d, time, "Skip", primary: false))</span></li>

        """
    }
    return """
      <section aria-labelledby="doses"><h2 id="doses">Doses due</h2>
      <ul class="doses">
      \(items)</ul></section>

      """
  }

  /// A button that records one dose: the fields are named as `vital meds take NAME --dose HH:MM`.
  func form(_ action: String, _ d: TodayView.DueDose, _ time: String, _ label: String, primary: Bool) -> HTML {
    """
    <form method="post" action="\(action)"><input type="hidden" name="csrf" value="\(formToken)">\
    <input type="hidden" name="medication" value="\(d.medicationID)"><input type="hidden" name="dose" value="\(time)">\
    <button type="submit"\(primary ? "" : HTML(" class=\"secondary\""))>\(label)<span class="visually-hidden"> \(d.medication) \(time)</span></button></form>
    """
  }

  var cycle: HTML {
    guard let cycle = today.cycle else { return "" }
    var line = "Cycle day \(cycle.day)" + (cycle.ongoing ? ", period ongoing" : "")
    if let late = cycle.late {
      line += "; period \(HumanText.count(late.days, "day")) late (expected \(human.day(late.expected)))"
    } else if let next = cycle.nextPeriod {
      line += "; next period around \(human.day(next))"
    }
    return """
      <section aria-labelledby="cycle"><h2 id="cycle">Cycle</h2><p>\(line)</p></section>

      """
  }

  var goals: HTML {
    guard !today.goals.isEmpty else { return "" }
    let rows = today.goals.enumerated().map { index, p -> HTML in
      let measure = p.goal.kind.measure
      let name = p.goal.title ?? p.goal.kind.name.capitalized
      guard let value = p.value, let percent = p.percent else {
        let since = p.lastData.map { "no data since \(human.day($0))" } ?? "no data yet"
        return """
          <li data-id="\(p.goal.id)"><span class="goal-name">\(name)</span> <span class="quiet">\(since); goal \(measure.text(p.goal.target))</span></li>

          """
      }
      let shown = Int(min(percent, 100).rounded())
      return """
        <li data-id="\(p.goal.id)"><label for="goal-\(index)" class="goal-name">\(name)</label>
        <meter id="goal-\(index)" min="0" max="100" low="50" high="99" optimum="100" value="\(shown)"></meter>
        <span>\(Int(percent.rounded()))% · \(measure.text(value)) of \(measure.text(p.goal.target))</span></li>

        """
    }
    return """
      <section aria-labelledby="goals"><h2 id="goals">Goals today</h2><ul class="goals">
      \(rows)</ul></section>

      """
  }

  var donor: HTML {
    let status = today.donor
    var rows: [HTML] = []
    if let appointment = status.appointment, let when = status.when(human) {
      rows.append("<dt>Appointment</dt><dd data-id=\"\(appointment.id)\">\(when), \(appointment.place)</dd>")
      if let advice = status.missedAdvice { rows.append("<dd class=\"advice\">\(advice)</dd>") }
    }
    rows.append("<dt>May donate</dt><dd>\(status.mayDonate(human))</dd>")
    if profile.bloodType == nil {
      rows.append("<dt>Blood type</dt><dd>not set (vital profile set --blood-type A+)</dd>")
    }
    return """
      <section aria-labelledby="donor"><h2 id="donor">Blood donation</h2><dl>\(rows)</dl></section>

      """
  }

  var reminders: HTML {
    guard !today.reminders.isEmpty else { return "" }
    let items = today.reminders.map { r -> HTML in
      "<li><time datetime=\"\(ISO8601.string(from: r.at))\">\(human.time(r.at))</time> \(r.title)</li>\n"
    }
    return """
      <section aria-labelledby="reminders"><h2 id="reminders">Next reminders</h2><ul class="reminders">
      \(items)</ul></section>

      """
  }

  /// `08:00`: the dose's time on the clock of the day it is due.
  static func clock(_ date: Date, _ calendar: Calendar) -> String {
    let c = calendar.dateComponents([.hour, .minute], from: date)
    return String(format: "%02d:%02d", c.hour!, c.minute!)
  }
}
