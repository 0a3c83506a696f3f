import Core

extension Account {
  public var json: JSON { .object([("id", .string(id)), ("email", .string(email)), ("name", .optional(name))]) }
  public var human: String { name.map { "\($0) <\(email)>" } ?? email }
}
