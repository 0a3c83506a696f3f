import Foundation
import Testing

/// `vital web` as a person starts it, asked over raw HTTP (a socket, so that a test can send
/// any Host and any form): who gets in, what a form may change, and that the pages show what
/// the commands show.
@Suite struct WebTests {
  static let password = "lilac harbour 1987 teaspoon\n"

  /// A home with an account and a medication taken since Friday: at 09:30 Berlin on Monday its
  /// 08:00 dose is overdue and its 20:00 dose not due yet.
  static func home() throws -> VitalHome {
    let vital = try VitalHome()
    vital.environment["VITAL_NOW"] = "2026-11-20T06:00:00Z"
    _ = try vital.run(["account", "register", "--email", "web@example.org", "--password-stdin"], stdin: password)
    #expect(try vital.run(["meds", "add", "Ramipril", "--at", "08:00", "--at", "20:00"]).status == 0)
    vital.environment["VITAL_NOW"] = "2026-11-23T08:30:00Z"
    return vital
  }

  @Test func aRemoteAddressIsRefusedUnlessAsked() throws {
    let vital = try Self.home()
    expectCleanError(try vital.run(["web", "--listen", "0.0.0.0:0"]), mentioning: "--allow-remote")
    expectCleanError(try vital.run(["web", "--listen", "192.168.1.20:0"]), mentioning: "--allow-remote")
  }

  @Test func helpIsTheServersOwn() throws {
    let vital = try VitalHome()
    for arguments in [["help", "web"], ["web", "--help"]] {
      let help = try vital.run(arguments)
      #expect(help.status == 0)
      #expect(help.stdout.contains("--listen") && help.stdout.contains("--allow-remote"), "\(help.stdout)")
      #expect(!help.stdout.contains("--json"), "a server prints no JSON")
    }
    #expect(try vital.run(["help", "sync"]).stdout.contains("--passphrase-stdin"))
  }

  @Test func nobodyLoggedInIsAClearError() throws {
    let vital = try VitalHome()
    expectCleanError(try vital.run(["web"]), mentioning: "vital account login")
  }

  @Test func theLinkIsTradedForACookieAndNothingElseGetsIn() throws {
    let vital = try Self.home()
    let web = try WebProcess(vital)
    defer { web.stop() }
    #expect(web.firstLine.wholeMatch(of: #/Vital is at http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64}/#) != nil)

    let bare = try web.get("/")
    #expect(bare.status == 401)
    #expect(bare.body.contains("Open the link vital web printed"))
    #expect(!bare.body.contains("Ramipril"), "nothing of the record without the cookie")
    Self.expectSecurityHeaders(bare)
    #expect(try web.get("/?token=" + String(repeating: "0", count: 64)).status == 401)

    let traded = try web.get("/?token=\(web.token)")
    #expect(traded.status == 303)
    #expect(traded.headers["location"] == "/", "the token leaves the address bar")
    let setCookie = try #require(traded.headers["set-cookie"])
    #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), "\(setCookie)")
    let cookie = try #require(setCookie.split(separator: ";").first.map(String.init))
    let name = try #require(cookie.split(separator: "=").first)
    #expect(try web.get("/", cookie: "\(name)=" + String(repeating: "a", count: 64)).status == 401, "a made-up session")
    // A path a browser reads as another host is not where the link sends it.
    #expect(try web.get("//evil.example/?token=\(web.token)").headers["location"] == "/")

    let page = try web.get("/", cookie: cookie)
    #expect(page.status == 200)
    #expect(page.body.contains("<h1>Today</h1>"))
    Self.expectSecurityHeaders(page)
    #expect(page.headers["cache-control"] == "no-store")

    // A page of another site whose name now points at 127.0.0.1 (DNS rebinding) names itself.
    let rebound = try web.get("/", cookie: cookie, host: "evil.example:\(web.port)")
    #expect(rebound.status == 421)
    #expect(!rebound.body.contains("Ramipril"))
    #expect(try web.get("/nowhere", cookie: cookie).status == 404)
    // A record that is not there is 404 on every record page, not a failure.
    for path in [
      "/meds/00000000-0000-0000-0000-000000000000", "/meds/nope/delete", "/donations/nope", "/areas/nope/delete",
      "/health/goals/nope",
    ] {
      #expect(try web.get(path, cookie: cookie).status == 404, "\(path)")
    }
    let head = try RawHTTP.send(port: web.port, method: "HEAD", path: "/", host: nil, cookie: cookie, body: nil)
    #expect(head.status == 200 && head.body.isEmpty, "HEAD is GET without the body")
    #expect(head.headers["cache-control"] == "no-store")
  }

  @Test func aDoseButtonRecordsWhatTheCommandWouldAndUndoTakesItBack() throws {
    let vital = try Self.home()
    let web = try WebProcess(vital)
    defer { web.stop() }
    let cookie = try web.logIn()
    let page = try web.get("/", cookie: cookie).body
    let id = try #require(try vital.run(["meds", "list", "--json"]).json as? [[String: Any]]).first?["id"] as? String
    #expect(page.contains("data-id=\"\(try #require(id))\""), "the dose carries its medication's full id")
    #expect(page.contains("overdue") && page.contains("08:00"), "\(page)")
    #expect(!page.contains("value=\"20:00\""), "the evening dose is not due yet")
    let form = try #require(page.firstMatch(of: #/name="csrf" value="([0-9a-f]{64})"/#)).1

    // Without the form token, or with another, nothing is written.
    let fields = "medication=\(id!)&dose=08%3A00"
    #expect(try web.post("/meds/take", fields, cookie: cookie).status == 403)
    #expect(
      try web.post("/meds/take", fields + "&csrf=" + String(repeating: "b", count: 64), cookie: cookie).status == 403)
    #expect(try Self.statuses(vital) == [], "nothing recorded by a refused form")

    let taken = try web.post("/meds/take", fields + "&csrf=\(form)", cookie: cookie)
    #expect(taken.status == 303 && taken.headers["location"] == "/")
    #expect(try Self.statuses(vital) == ["taken"], "the same record as 'vital meds take'")
    #expect(!(try web.get("/", cookie: cookie).body.contains("overdue")), "a change shows on the next load")

    // One change in the journal, under the command's own name: the terminal undoes it.
    let undone = try vital.run(["undo", "--yes", "--json"])
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(undone.stdout.contains("meds take"), "\(undone.stdout)")
    #expect(try Self.statuses(vital) == [])
    #expect(try web.get("/", cookie: cookie).body.contains("overdue"), "a change made in the terminal shows too")

    // A refusal comes back as the page with the reason, nothing written.
    let wrong = try web.post("/meds/skip", "medication=Aspirin&dose=08%3A00&csrf=\(form)", cookie: cookie)
    #expect(wrong.status == 422)
    #expect(wrong.body.contains("role=\"alert\"") && wrong.body.contains("Aspirin"), "\(wrong.body)")
    #expect(try Self.statuses(vital) == [])
    let fromMeds = try web.post(
      "/meds/skip", "medication=Aspirin&dose=08%3A00&back=%2Fmeds&csrf=\(form)", cookie: cookie)
    #expect(fromMeds.status == 422 && fromMeds.body.contains("<h1>Medications</h1>"), "back on the page it came from")
  }

  @Test func theExportsAreTheCommandsOwnAndSyncSaysWhatIsMissing() throws {
    let vital = try Self.home()
    #expect(
      try vital.run(["donor", "add", "--at", "2026-11-02T10:00", "--place", "DRK Mitte", "--hb", "13.9"]).status == 0)
    let web = try WebProcess(vital)
    defer { web.stop() }
    let cookie = try web.logIn()
    #expect(try web.get("/export", cookie: cookie).body.contains("<h1>Export</h1>"))

    let fhir = try web.get("/export/vital-fhir.json", cookie: cookie)
    #expect(fhir.status == 200)
    #expect(fhir.headers["content-disposition"] == "attachment; filename=\"vital-fhir.json\"")
    #expect(fhir.headers["cache-control"] == "no-store", "a download holds health data too")
    let bundle = try #require(try JSONSerialization.jsonObject(with: Data(fhir.body.utf8)) as? [String: Any])
    #expect(bundle["resourceType"] as? String == "Bundle")
    let cli = try vital.run(["export", "--format", "fhir"]).stdout
    #expect(fhir.body == cli, "the download is what the command writes")

    let json = try web.get("/export/vital-export.json", cookie: cookie)
    let jsonCLI = try vital.run(["export", "--format", "json"]).stdout
    #expect(json.status == 200 && json.body == jsonCLI)
    let csv = try web.get("/export/csv/donations", cookie: cookie)
    let csvCLI = try vital.run(["export", "--format", "csv", "--kind", "donations"]).stdout
    #expect(csv.status == 200 && csv.body == csvCLI)
    #expect(csv.body.contains("DRK Mitte"))
    #expect(try web.get("/export/csv/passwords", cookie: cookie).status == 404)
    #expect(try web.get("/export/report.html", cookie: cookie).body.contains("<svg"), "the report with its charts")
    #expect(try web.get("/export/vital-fhir.json").status == 401, "no download without the cookie")

    let sync = try web.get("/sync", cookie: cookie).body
    #expect(sync.contains("<h1>Sync</h1>") && sync.contains("vital remote set URL"), "\(sync)")
    let form = try #require(sync.firstMatch(of: #/name="csrf" value="([0-9a-f]{64})"/#)).1
    let now = try web.post("/sync", "csrf=\(form)", cookie: cookie)
    #expect(now.status == 422)
    #expect(now.body.contains("no server set"), "the command's own words: \(now.body)")
  }

  @Test func theQuestionnaireOnAPageLetsABrowserBook() throws {
    let vital = try Self.home()
    let profile = ["profile", "set", "--sex", "female", "--birth-date", "1990-01-01", "--weight-kg", "62"]
    #expect(try vital.run(profile + ["--region", "de"]).status == 0)
    let web = try WebProcess(vital)
    defer { web.stop() }
    let cookie = try web.logIn()
    let page = try web.get("/donations/questionnaire", cookie: cookie).body
    let form = try #require(page.firstMatch(of: #/name="csrf" value="([0-9a-f]{64})"/#)).1
    let ids = page.matches(of: #/name="([^"]+)" value="no"/#).map { String($0.1) }
    #expect(ids.count > 10, "a Yes/No pair per question: \(ids)")
    #expect(page.matches(of: #/<legend>/#).count == ids.count, "each pair named by its question")
    func results() throws -> [[String: Any]] {
      try #require(try vital.run(["donor", "questionnaire", "list", "--json"]).json as? [[String: Any]])
    }

    let some = ids.dropLast().map { "\($0)=no" }.joined(separator: "&")
    let unfinished = try web.post("/donations/questionnaire", some + "&csrf=\(form)", cookie: cookie)
    #expect(unfinished.status == 422 && unfinished.body.contains("1 question left"), "\(unfinished.body)")
    #expect(unfinished.body.contains("value=\"no\" checked"), "what was answered stays answered")
    #expect(try results().isEmpty, "nothing saved")

    let all = ids.map { "\($0)=no" }.joined(separator: "&")
    #expect(try web.post("/donations/questionnaire", all + "&csrf=\(form)", cookie: cookie).status == 303)
    #expect(try results().first?["eligible"] as? Bool == true, "stored as 'vital donor questionnaire' stores it")
    #expect(try web.get("/donations/questionnaire", cookie: cookie).body.contains("Eligible"))

    let book = "at=2026-11-30T10%3A00&place=DRK+Mitte&kind=whole-blood&csrf=\(form)"
    let booked = try web.post("/donations/book", book, cookie: cookie)
    #expect(booked.status == 303, "\(booked.body)")
    let history = try #require(try vital.run(["donor", "history", "--json"]).json as? [[String: Any]])
    #expect(history.contains { $0["status"] as? String == "scheduled" && $0["place"] as? String == "DRK Mitte" })
  }

  @Test func whatAPersonTypedShowsAsText() throws {
    let vital = try Self.home()
    let script = "<script>alert(1)</script>"
    #expect(try vital.run(["goals", "add", "--type", "steps", "--target", "8000", "--title", script]).status == 0)
    let web = try WebProcess(vital)
    defer { web.stop() }
    let page = try web.get("/", cookie: try web.logIn()).body
    #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(page)")
    #expect(!page.contains(script))
  }

  @Test func aFormTooLargeOrABusyPortIsOneClearRefusal() throws {
    let vital = try Self.home()
    let web = try WebProcess(vital)
    defer { web.stop() }
    let cookie = try web.logIn()
    let huge = try web.post("/meds/take", "note=" + String(repeating: "x", count: 200_000), cookie: cookie)
    #expect(huge.status == 413)
    #expect(!huge.body.contains("Error") && !huge.body.contains("NIO"), "no internal words: \(huge.body)")
    #expect(try Self.statuses(vital) == [])
    expectCleanError(try vital.run(["web", "--listen", "127.0.0.1:\(web.port)"]), mentioning: "in use")
  }

  @Test func sigtermEndsItCleanly() throws {
    let vital = try Self.home()
    let web = try WebProcess(vital)
    #expect(web.stop() == 0)
  }

  static func expectSecurityHeaders(_ answer: RawHTTP.Answer, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      answer.headers["content-security-policy"]?.contains("default-src 'self'") == true, sourceLocation: sourceLocation)
    #expect(answer.headers["x-content-type-options"] == "nosniff", sourceLocation: sourceLocation)
    #expect(answer.headers["referrer-policy"] == "no-referrer", sourceLocation: sourceLocation)
  }

  /// The statuses of Ramipril's recorded doses, as `vital meds history` gives them.
  static func statuses(_ vital: VitalHome) throws -> [String] {
    let history = try vital.run(["meds", "history", "--format", "json"])
    let rows = try #require(history.json as? [[String: Any]], "\(history.stdout) \(history.stderr)")
    return rows.compactMap { $0["status"] as? String }.filter { $0 == "taken" || $0 == "skipped" }
  }
}
