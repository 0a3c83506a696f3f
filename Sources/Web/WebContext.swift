import Hummingbird

/// A request's context: Hummingbird's own, plus what `WebGuard` read: the browser session's
/// form token (for the forms a page draws) and a POST's fields, their token already checked.
public struct WebContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  var formToken = ""
  var form = Form("")

  public init(source: Source) {
    coreContext = .init(source: source)
  }
}
