/// A local account. Every personal row in the database belongs to one.
public struct Account: Equatable, Sendable {
  public let id: String
  public let email: String
  public var name: String?

  public init(id: String, email: String, name: String?) {
    (self.id, self.email, self.name) = (id, email, name)
  }
}
