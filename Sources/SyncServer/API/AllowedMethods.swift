import Hummingbird

/// The methods each endpoint answers, as `buildApplication` routes them: a known path asked with
/// another method is answered 405 with `Allow`, not 404 (which says the path is unknown).
enum AllowedMethods {
  static let routes: [(path: [Substring], methods: [HTTPRequest.Method])] = [
    ("/healthz", [.get]), ("/v1/version", [.get]), ("/v1/accounts", [.post]), ("/v1/sessions", [.get, .post]),
    ("/v1/sync", [.post]), ("/v1/accounts/current", [.delete]), ("/v1/sessions/:id", [.delete]),
    ("/v1/keys/current", [.get, .put]), ("/v1/blobs/:sha256", [.get, .put]),
  ].map { ($0.0.split(separator: "/"), $0.1) }

  /// The methods `path` answers; empty for a path no endpoint has.
  static func methods(for path: String) -> [HTTPRequest.Method] {
    let parts = path.split(separator: "/")
    var found: [HTTPRequest.Method] = []
    for route in routes where route.path.count == parts.count {
      let matches = zip(route.path, parts).allSatisfy { pattern, part in pattern.hasPrefix(":") || pattern == part }
      if matches { found += route.methods.filter { !found.contains($0) } }
    }
    return found
  }
}
