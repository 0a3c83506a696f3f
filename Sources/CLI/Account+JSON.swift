import Auth

extension Account {
  var json: JSON { .object([("id", .string(id)), ("email", .string(email)), ("name", .optional(name))]) }
  var human: String { name.map { "\($0) <\(email)>" } ?? email }
}
