import Core
import Foundation
import Hummingbird
import Records

extension WebContext {
  /// The record id in the path (`/meds/:id`).
  func id() throws -> String {
    guard let id = parameters.get("id"), !id.isEmpty else { throw WebError.notFound }
    return id
  }
}

/// How a record page deletes: `PATH/:id/delete` asks (GET, the record named in words) and
/// deletes (POST, as `command` does, one journaled change), then sends the browser to `back`.
struct RecordDeletes: Sendable {
  let store: WebStore
  /// `/meds`: the record's page is `/meds/ID`.
  let path: String
  let noun: String
  let command: String
  let back: String
  var undo = "'Undo' brings it back, here or with 'vital undo' in a terminal."
  /// The record's full id and how the question names it.
  let describe: @Sendable (AccountScope, String) throws -> (id: String, line: String)
  let delete: @Sendable (AccountScope, String) throws -> Void

  func add(to router: Router<WebContext>, current: String) {
    router.page("\(path)/:id/delete") { _, context in
      let id = try context.id()
      let (full, line) = try await store.read { scope in try describe(scope, id) }
      return RecordPages(formToken: context.formToken).confirmDelete(
        noun: noun, id: full, path: "\(path)/\(full)", line: line, undo: undo
      ).response(current: current)
    }
    router.post("\(path)/:id/delete") { _, context in
      let id = try context.id()
      try await store.write(command) { scope in try delete(scope, id) }
      return Page.seeOther(back)
    }
  }
}
