import Foundation
import Testing

/// `vital web` in a real headless Chromium (scripts/check-web drives it as a person would):
/// a donation recorded, refused, corrected, deleted and brought back by Undo, a dose taken on
/// Today, taken back and then skipped on Medications, a medication added (once refused) and corrected, a
/// waking temperature noted on the cycle page and drawn in its chart, a source moved up on the
/// health page and the day's total changed with it, a place watched (once refused), a donation
/// recorded with JavaScript off; each checked against the CLI's `--json` of the same
/// home. Every page: named by its `<h1>`, every field labelled, nothing sideways at 390 px, no
/// axe-core violation, screenshots under .build/test-screenshots/web for a person to look at.
@Suite struct WebBrowserTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func aPersonKeepsDonationsAndMedicationsThroughThePages() throws {
    let vital = try WebTests.home()
    // A period and five waking temperatures after it: the cycle page charts them.
    #expect(try vital.run(["cycle", "add", "--start", "2026-10-26", "--end", "2026-10-30"]).status == 0)
    for day in 5...9 {
      #expect(try vital.run(["cycle", "note", "--date", "2026-11-0\(day)", "--temperature", "36.4"]).status == 0)
    }
    // A watch and an app that counted the same minutes: the watch ranks first.
    let export = vital.root + "/two.xml"
    try HealthTotalsCLITests.generate(export, ["--sources", "watch,app", "--start", "2026-11-20", "--days", "1"])
    #expect(try vital.run(["health", "import", export]).status == 0)
    let web = try WebProcess(vital)
    defer { web.stop() }
    let shots = Self.root.appendingPathComponent(".build/test-screenshots/web")
    try? FileManager.default.removeItem(at: shots)
    let output = try runChecker(
      "check-web", ["http://127.0.0.1:\(web.port)/?token=\(web.token)", shots.path, "DRK Mitte"])
    let result = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])

    let history = try #require(try vital.run(["donor", "history", "--json"]).json as? [[String: Any]])
    let added = try #require(result["added"] as? String, "the form added a donation: \(result)")
    let donation = try #require(history.first { $0["id"] as? String == added }, "undo brought it back")
    #expect(result["deleted"] as? Bool == true)
    #expect(result["restored"] as? Bool == true)
    #expect(donation["place"] as? String == "DRK Mitte (moved)", "the edit is what the CLI reads")
    #expect(result["edited_place"] as? String == "DRK Mitte (moved)")
    #expect((donation["completed_at"] as? String)?.hasPrefix("2026-11-20T09:30:00+01:00") == true, "\(donation)")
    let vitals = try #require(donation["vitals"] as? [String: Any])
    #expect(vitals["hb_g_dl"] as? Double == 13.8, "the refused haemoglobin of 300 was not written")

    let refused = try #require(result["refused"] as? [String: Any])
    #expect((refused["field_error"] as? String)?.contains("haemoglobin must be within") == true, "\(refused)")
    #expect(refused["field_invalid"] as? String == "true")
    #expect((refused["status_alert"] as? String)?.hasPrefix("Nothing was saved") == true)

    let undo = try #require(try vital.run(["undo", "--list", "--json"]).json as? [[String: Any]])
    let commands = undo.prefix(13).map { ($0["command"] as? String ?? "").replacing(#/^undo \d+$/#, with: "undo") }
    #expect(
      commands == [
        "donor add", "area watch add", "health sources", "cycle note", "meds edit", "meds add", "meds skip",
        "meds dose delete", "meds take", "undo", "donor delete", "donor edit", "donor add",
      ], "each form one journaled change under the CLI's name: \(commands)")

    let took = try #require(result["took"] as? [String: Any], "Today had a dose to take")
    #expect(took["dose"] as? String == "08:00")
    #expect(result["meds_undone"] as? Bool == true, "the take was taken back on /meds")
    let doses = try #require(try vital.run(["meds", "history", "--json"]).json as? [[String: Any]])
    #expect(!doses.contains { $0["status"] as? String == "taken" }, "the take is gone again: \(doses)")
    #expect(result["skipped"] as? String == "08:00" && result["skipped_shown"] as? Bool == true, "\(result)")
    #expect(
      doses.contains { $0["status"] as? String == "skipped" && ($0["key"] as? String)?.hasSuffix("T08:00") == true },
      "skipped on /meds, as 'vital meds skip' records it: \(doses)")
    #expect(
      (result["meds_refused"] as? String)?.contains("not a time of day") == true, "\(result["meds_refused"] ?? "")")
    let meds = try #require(try vital.run(["meds", "list", "--json"]).json as? [[String: Any]])
    let webcillin = try #require(meds.first { $0["id"] as? String == result["med_added"] as? String }, "\(meds)")
    #expect(webcillin["name"] as? String == "Webcillin")
    #expect(webcillin["times"] as? [String] == ["21:00"])
    #expect(webcillin["dose"] as? String == "250 mg")
    #expect(webcillin["stock"] as? Int == 30, "the stock corrected on its page")

    let nojs = try #require(result["nojs_added"] as? String, "a donation recorded with JavaScript off: \(result)")
    #expect(history.contains { $0["id"] as? String == nojs && $0["place"] as? String == "DRK Mitte (no script)" })

    #expect(result["cycle_points_before"] as? Int == 5, "\(result)")
    #expect(result["cycle_points_after"] as? Int == 6, "the noted temperature is in the chart")
    #expect(result["cycle_url"] as? String == "/cycle?month=2026-11&day=2026-11-11")
    let notes = try #require(try vital.run(["cycle", "notes", "--json"]).json as? [[String: Any]])
    let noted = try #require(notes.first { $0["date"] as? String == "2026-11-11" }, "\(notes)")
    #expect(noted["temperature"] as? Double == 36.45)
    #expect(noted["pain"] as? [String] == ["cramps"])

    #expect(result["health_moved"] as? String == "Pedometer++", "\(result)")
    #expect(result["health_first"] as? String == "Pedometer++", "the app ranks first now")
    let summary = try #require(try vital.run(["health", "summary", "--date", "2026-11-20", "--json"]).object)
    let steps = try #require(summary["steps"] as? Double)
    #expect(
      (result["health_after"] as? String)?.filter(\.isNumber) == String(Int(steps.rounded())),
      "the page's total is the CLI's: \(result["health_after"] ?? "") against \(steps)")
    #expect(
      result["health_before"] as? String != result["health_after"] as? String, "ranking the app first changed the total"
    )

    #expect((result["area_refused"] as? String)?.contains("-90 to 90") == true, "\(result["area_refused"] ?? "")")
    #expect(result["areas"] as? [String] == ["Work"])
    let watches = try #require(try vital.run(["area", "watch", "list", "--json"]).json as? [[String: Any]])
    #expect(watches.map { $0["label"] as? String } == ["Work"] && watches.first?["lat"] as? Double == 52.52)

    let pages = try #require(result["pages"] as? [String: [String: Any]])
    #expect(pages.count == 15)
    for (path, page) in pages {
      #expect(page["width_390"] as? Int == 390, "\(path) scrolls sideways at 390 px")
      let axes = page["axes_390"] as? [String: Any]
      #expect(axes?["hidden"] as? [String] == [], "\(path): a chart's value axis is out of view at 390 px")
      #expect(axes?["misaligned"] as? [String] == [], "\(path): a pinned axis off the chart's scale")
      #expect(axes?["newest"] as? [String] == [], "\(path): a chart opens with its newest measurement out of view")
      #expect((page["unlabelled"] as? [String])?.isEmpty == true, "\(path): fields without a label")
      #expect((page["charts_untitled"] as? [String])?.isEmpty == true, "\(path): charts without a title")
      let h1 = page["h1"] as? String ?? ""
      #expect(!h1.isEmpty && !["Not Found", "Internal Server Error", "Unauthorized"].contains(h1), "\(path): \(page)")
    }
    #expect(pages["/donations"]?["h1"] as? String == "Donations")
    for path in ["/donations", "/cycle"] {
      let pinned = (pages[path]?["axes_390"] as? [String: Any])?["pinned"] as? Int ?? 0
      #expect(pinned >= 1, "\(path)'s chart pins its value axis at 390 px")
    }
    let axe = try #require(result["axe"] as? [String: [String]])
    #expect(axe.count == 15 && axe.values.allSatisfy(\.isEmpty), "axe-core: \(axe)")
    #expect((result["axe_rules_passed"] as? Int ?? 0) > 50, "axe-core ran its rules")
    #expect((result["console"] as? [String])?.isEmpty == true, "\(result["console"] ?? "")")
    #expect(result["screenshots"] as? Int == 60)
    let saved = try FileManager.default.contentsOfDirectory(atPath: shots.path).filter { $0.hasSuffix(".png") }
    #expect(saved.count == 60, "\(saved)")
  }
}
