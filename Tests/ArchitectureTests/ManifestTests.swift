import Foundation
import Testing

/// Package.swift says what each target links; docs/architecture.md says what each module may
/// import. The two must agree, so that neither drifts: a dependency added to the manifest
/// without the page (or the other way round) fails here. And what the server links, all the way
/// down, holds no record code.
@Suite struct ManifestTests {
  /// A target of the manifest: its name, its folder under Sources/, what it depends on (targets
  /// and products, by module name).
  struct Target {
    var name: String
    var folder: String
    var dependencies: Set<String>
  }

  /// The manifest's `.target`, `.executableTarget` and `.testTarget` entries, read as text.
  static func targets() throws -> [String: Target] {
    let text = try String(
      contentsOf: ImportRulesTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    var targets: [String: Target] = [:]
    for start in text.ranges(of: #/\.(target|executableTarget|testTarget)\(/#) {
      // The entry runs to its closing parenthesis; none of the manifest's strings hold one.
      var depth = 0
      var end = start.upperBound
      for index in text[start.lowerBound...].indices {
        if text[index] == "(" { depth += 1 }
        if text[index] == ")" {
          depth -= 1
          if depth == 0 {
            end = index
            break
          }
        }
      }
      let entry = String(text[start.lowerBound..<end])
      guard let name = entry.firstMatch(of: #/^\.\w+\(\s*name: "([\w-]+)"/#)?.1 else { continue }
      let folder = entry.firstMatch(of: #/path: "Sources/(\w+)"/#).map { String($0.1) } ?? String(name)
      var dependencies: Set<String> = []
      if let list = entry.firstMatch(of: #/dependencies: \[([^\]]*)\]/#)?.1 {
        // Products by their module name; plain strings are targets.
        let withoutProducts = list.replacing(#/\.product\(name: "(\w+)"[^)]*\)/#) { " \"\($0.1)\" " }
        for match in withoutProducts.matches(of: #/"([\w-]+)"/#) { dependencies.insert(String(match.1)) }
      }
      targets[String(name)] = Target(name: String(name), folder: folder, dependencies: dependencies)
    }
    return targets
  }

  @Test func theManifestLinksWhatThePageAllows() throws {
    let rules = try ImportRulesTests.rules()
    let targets = try Self.targets()
    #expect(targets.count >= 15, "Package.swift was not read")
    for target in targets.values where rules[target.folder] != nil {
      // Executables and helpers a test target runs are not imported.
      let linked = target.dependencies.filter { targets[$0].map { !$0.name.hasPrefix("vital") } ?? true }
        .subtracting(["storage-writer"])
      #expect(
        linked == rules[target.folder]!,
        "Package.swift links \(target.name) with \(linked.sorted()), docs/architecture.md allows \(rules[target.folder]!.sorted())"
      )
    }
  }

  /// Everything `name` links, through the targets it depends on.
  static func closure(of name: String, in targets: [String: Target]) -> Set<String> {
    var seen: Set<String> = []
    var queue = [name]
    while let next = queue.popLast() {
      for dependency in targets[next]?.dependencies ?? [] where seen.insert(dependency).inserted {
        queue.append(dependency)
      }
    }
    return seen
  }

  @Test func theServerLinksNoRecordCode() throws {
    let targets = try Self.targets()
    let served = Self.closure(of: "vital-serve", in: targets)
    #expect(served.contains("SyncServer"), "the closure was not followed")
    #expect(
      served.isDisjoint(with: ["Records", "Views", "Schema", "CLibXML2", "ZIPFoundation", "CLIApp"]),
      "\(served.sorted())")
    let everyday = Self.closure(of: "vital", in: targets)
    #expect(
      everyday.isDisjoint(with: ["SyncHTTP", "SyncServer", "AsyncHTTPClient", "Hummingbird"]), "\(everyday.sorted())")
  }

  /// libxml2 and ZIPFoundation are for reading other programs' files: only Interchange links
  /// them, so the domain, the schema and vital-sync do not.
  @Test func onlyInterchangeLinksTheFileReaders() throws {
    let targets = try Self.targets()
    for name in ["Records", "Views", "Schema", "vital-sync", "vital-bench"] {
      let closure = Self.closure(of: name, in: targets)
      #expect(closure.isDisjoint(with: ["Interchange", "CLibXML2", "ZIPFoundation"]), "\(name): \(closure.sorted())")
    }
    #expect(Self.closure(of: "Interchange", in: targets).isSuperset(of: ["Records", "CLibXML2", "ZIPFoundation"]))
  }
}
