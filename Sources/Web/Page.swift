import Foundation
import Hummingbird

/// One page: the frame every page shares (its title in `<title>` and `<h1>`, the stylesheet,
/// the navigation) around what the page draws.
struct Page: Sendable {
  let title: String
  var status: HTTPResponse.Status = .ok
  /// An error to show above the page's content, read out at once by a screen reader.
  var alert: String?
  let body: HTML

  /// The pages in the navigation, in order: (path, name).
  static let pages = [
    ("/", "Today"), ("/donations", "Donations"), ("/meds", "Medications"), ("/cycle", "Cycle"), ("/health", "Health"),
    ("/areas", "Areas"), ("/sync", "Sync"), ("/export", "Export"), ("/undo", "Undo"),
  ]

  func document(current path: String?) -> HTML {
    let nav = Self.pages.map { page, name -> HTML in
      page == path ? "<a href=\"\(page)\" aria-current=\"page\">\(name)</a>" : "<a href=\"\(page)\">\(name)</a>"
    }
    let alert: HTML = self.alert.map { (text: String) -> HTML in "<p class=\"alert\" role=\"alert\">\(text)</p>" } ?? ""
    return """
      \(Self.head(title))
      <header><span class="brand">Vital</span><nav aria-label="Pages">\(nav)</nav></header>
      <main>
      <h1>\(title)</h1>
      \(alert)\(body)
      </main>
      </body>
      </html>

      """
  }

  /// Everything before a page's content: the same for every page and every refusal.
  static func head(_ title: String) -> HTML {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>\(title) · Vital</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/static/vital.css">
    </head>
    <body>
    """
  }

  func response(current path: String?) -> Response {
    Self.respond(status, document(current: path))
  }

  static func respond(_ status: HTTPResponse.Status, _ html: HTML) -> Response {
    Response(
      status: status, headers: [.contentType: "text/html; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: html.text)))
  }

  /// A refusal: its own small page, without the navigation (a browser without the cookie has
  /// nowhere to go but the printed link).
  static func error(_ error: WebError) -> Response {
    let title = error.status.reasonPhrase
    let html: HTML = """
      \(head(title))
      <main>
      <h1>\(title)</h1>
      <p role="alert">\(error.message)</p>
      </main>
      </body>
      </html>

      """
    return respond(error.status, html)
  }

  /// Where a form goes after it changed something: back to a page, by GET, so that reloading
  /// does not send the form again.
  static func seeOther(_ path: String) -> Response {
    Response(status: .seeOther, headers: [.location: path])
  }
}
