import Foundation
import Testing

/// docs/architecture.md's module table is the rule: every `import` in Sources/ must be one its
/// module may make. The table is read from the page, so the page and the code cannot drift.
@Suite struct ImportRulesTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  /// What any module may import besides the table's entries.
  static let everywhere: Set<String> = ["Foundation", "Dispatch", "Glibc", "Synchronization"]

  /// folder under Sources/ → modules it may import, from the table's `folder` and `may import` columns.
  static func rules() throws -> [String: Set<String>] {
    let page = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    var rules: [String: Set<String>] = [:]
    for line in page.split(separator: "\n") where line.hasPrefix("| ") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count == 6, cells[2].hasPrefix("`Sources/"), !cells[2].contains("*") else { continue }
      let folder = String(cells[2].dropFirst("`Sources/".count).dropLast())
      rules[folder] = Set(cells[4].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        .subtracting([""])
    }
    return rules
  }

  /// Module names imported by a Swift file, whatever the attributes or access level before `import`.
  static func imports(_ source: String) -> Set<String> {
    let pattern =
      #/
      ^\s* (?:@\w+\s+)* (?:(?:public|package|internal|fileprivate|private)\s+)?
      import\s+ (?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)? (\w+)
      /#
    var modules: Set<String> = []
    for line in source.split(separator: "\n", omittingEmptySubsequences: true) {
      if let match = line.firstMatch(of: pattern) { modules.insert(String(match.1)) }
    }
    return modules
  }

  @Test func everyModuleImportsOnlyWhatThePageAllows() throws {
    let rules = try Self.rules()
    let sources = Self.root.appendingPathComponent("Sources")
    // A system library's folder holds a module map, not Swift.
    let folders = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter {
      !FileManager.default.fileExists(atPath: sources.appendingPathComponent("\($0)/module.modulemap").path)
    }
    #expect(rules.count >= 10, "the table in docs/architecture.md was not read")
    for folder in folders.sorted() {
      let allowed = try #require(rules[folder], "Sources/\(folder) is missing from docs/architecture.md").union(
        Self.everywhere)
      let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(folder).path)!
      for case let file as String in files where file.hasSuffix(".swift") {
        let text = try String(contentsOf: sources.appendingPathComponent("\(folder)/\(file)"), encoding: .utf8)
        for module in Self.imports(text).subtracting(allowed).sorted() {
          Issue.record("Sources/\(folder)/\(file) imports \(module), which docs/architecture.md does not allow")
        }
      }
    }
  }

  @Test func theImportReaderSeesEveryFormAndNothingElse() {
    let source = """
      import Foundation
      internal import CSQLite
      @testable import Sync
        import FoundationNetworking
      import struct Records.Period
      // import Hummingbird
      let text = "import PostgresNIO"
      """
    #expect(Self.imports(source) == ["Foundation", "CSQLite", "Sync", "FoundationNetworking", "Records"])
  }
}
