import Hummingbird

/// A refusal as a page: its status and one sentence that says what to do next. It never holds
/// a health value or a token.
public struct WebError: Error, Sendable, Equatable {
  public let status: HTTPResponse.Status
  public let message: String

  public init(_ status: HTTPResponse.Status, _ message: String) {
    self.status = status
    self.message = message
  }

  static let notFound = WebError(.notFound, "There is no page here. Today is at /.")
}
