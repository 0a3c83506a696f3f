/// What each phase asks of people, in our own words (the seed app's texts served as a checklist
/// of topics only). Every phase has guidance on masks, private meetings and public life.
public enum Guidelines {
  public enum Language: String, CaseIterable, Sendable { case en, de }

  public static func lines(_ phase: Phase, _ language: Language) -> [String] {
    switch (phase, language) {
    case (.green, .en):
      return [
        "Masks: wear one on public transport, in shops and wherever you cannot keep 1.5 m apart.",
        "Private meetings: indoors up to 100 people, outdoors up to 200.",
        "Public life: keep your distance and meet fewer people in person where you can.",
      ]
    case (.green, .de):
      return [
        "Maske: in Bus und Bahn, in Geschäften und überall dort tragen, wo 1,5 m Abstand nicht möglich sind.",
        "Private Treffen: drinnen bis 100 Personen, draußen bis 200.",
        "Öffentliches Leben: Abstand halten und persönliche Kontakte wo möglich verringern.",
      ]
    case (.yellow, .en):
      return [
        "Masks: also required in busy places, pedestrian zones, public buildings, universities, at events, and in secondary school classes.",
        "Private meetings: at most two households or ten people.",
        "Public life: no alcohol sold or drunk in public places after 23:00.",
      ]
    case (.yellow, .de):
      return [
        "Maske: zusätzlich Pflicht an belebten Orten, in Fußgängerzonen, öffentlichen Gebäuden, Hochschulen, bei Veranstaltungen und im Unterricht weiterführender Schulen.",
        "Private Treffen: höchstens zwei Haushalte oder zehn Personen.",
        "Öffentliches Leben: ab 23 Uhr kein Verkauf und kein Konsum von Alkohol im öffentlichen Raum.",
      ]
    case (.red, .en):
      return [
        "Masks: required in class for every school year, as well as everywhere the yellow phase names.",
        "Private meetings: at most two households or five people.",
        "Public life: no alcohol sold or drunk in public places after 22:00.",
      ]
    case (.red, .de):
      return [
        "Maske: Pflicht im Unterricht aller Jahrgangsstufen und überall dort, wo sie schon in der gelben Phase gilt.",
        "Private Treffen: höchstens zwei Haushalte oder fünf Personen.",
        "Öffentliches Leben: ab 22 Uhr kein Verkauf und kein Konsum von Alkohol im öffentlichen Raum.",
      ]
    case (.darkRed, .en):
      return [
        "Masks: required wherever people meet outside their home, including workplaces without fixed distance, and outdoors in busy places.",
        "Private meetings: your own household plus one other person; events of clubs, sports and culture limited to 50 people.",
        "Public life: restaurants close at 21:00; no alcohol sold or drunk in named public places.",
      ]
    case (.darkRed, .de):
      return [
        "Maske: Pflicht überall, wo Menschen außerhalb der eigenen Wohnung zusammenkommen, auch am Arbeitsplatz ohne festen Abstand und draußen an belebten Orten.",
        "Private Treffen: der eigene Haushalt und eine weitere Person; Veranstaltungen von Vereinen, Sport und Kultur höchstens 50 Personen.",
        "Öffentliches Leben: Gastronomie schließt um 21 Uhr; kein Verkauf und Konsum von Alkohol an festgelegten öffentlichen Orten.",
      ]
    }
  }
}
