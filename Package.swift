// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Vital",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "vital", targets: ["vital"]),
    .executable(name: "vital-serve", targets: ["vital-serve"]),
    .executable(name: "vital-sync", targets: ["vital-sync"]),
    .executable(name: "vital-web", targets: ["vital-web"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    // Hummingbird's own foundations, named because the server guards its connections in NIO.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    // The server's metrics in Prometheus's text format (`vital serve --metrics`).
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // The server's hourly collection of unused blobs runs as a service beside the HTTP server.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // The sync client's HTTP: Foundation's URLSession on Linux spent more CPU moving a push than
    // the server spent merging it.
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .systemLibrary(
      name: "COpenSSL",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]
    ),
    // Apple Health exports are streamed through libxml2's push parser, which this C target loads
    // on first use (dlopen): nothing links libxml2, so no command but the import loads it.
    // libxml2-dev's headers are where Debian puts them.
    .target(name: "CLibXML2", cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])]),
    // The kernel keyring's system calls (add_key, keyctl), which Swift cannot call variadically.
    .systemLibrary(name: "CKeyring"),
    // The VFS that seals a database's pages at rest: C, since SQLite calls it through C function
    // tables; it knows pages, not ciphers.
    .target(name: "CSealedVFS", linkerSettings: [.linkedLibrary("sqlite3")]),
    // SQLite and nothing of Vital.
    .target(name: "Storage", dependencies: ["CSQLite", "CSealedVFS"]),
    // Everything cryptographic, over OpenSSL: hashes, HMAC, scrypt, AES-GCM, AES-SIV, random bytes.
    .target(name: "Cryptography", dependencies: ["COpenSSL"]),
    // The types every layer shares: Account, LocalDate.
    .target(name: "Core", dependencies: ["Storage"]),
    // Clocks, the outbox, field merge and datasets, over any table a feature describes.
    .target(name: "Replication", dependencies: ["Storage"]),
    // The password blocklist is data, compiled into the binary so an installed vital needs no
    // resource folder beside it.
    .target(
      name: "Auth", dependencies: ["Storage", "Cryptography", "Core"],
      exclude: ["Blocklist/LICENSE-zxcvbn.txt"],
      resources: [.embedInCode("Blocklist/common-passwords.txt")]),
    // The database encrypted at rest: header, keys, the page cipher, the kernel keyring.
    .target(name: "AtRest", dependencies: ["Storage", "Cryptography", "Auth", "CKeyring"]),
    // The records a person keeps, a folder per feature; a feature reaches another only through
    // a public API named for it.
    // The lab test catalogue is data, built into the binary (docs/labs.md).
    .target(
      name: "Records", dependencies: ["Storage", "Cryptography", "Core", "Replication"],
      resources: [.embedInCode("Labs/lab-tests.json")]),
    // What reads every feature at once: today, the report, reminders and their calendar feed.
    .target(name: "Views", dependencies: ["Storage", "Core", "Replication", "Records"]),
    // What comes in from and goes out to other programs: the Apple Health export, FHIR, the
    // whole-record archive. The only module that links libxml2 and ZIPFoundation.
    .target(
      name: "Interchange",
      dependencies: [
        "Storage", "Cryptography", "Core", "Replication", "Records", "Views", "CLibXML2",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ]),
    // What sync shares without networking: settings, the wire format, sealing.
    .target(name: "Sync", dependencies: ["Storage", "Cryptography", "Core", "Replication"]),
    // The HTTP client (AsyncHTTPClient over NIO), for vital-sync alone.
    .target(
      name: "SyncHTTP",
      dependencies: [
        "Storage", "Cryptography", "Core", "Replication", "Sync",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]),
    // The server relays datasets without knowing them: it links neither the records nor the schema.
    .target(
      name: "SyncServer",
      dependencies: [
        "Storage", "Cryptography", "Auth", "Replication", "Sync", .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"), .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]),
    // `vital web`: the pages, over the same database and undo as the commands.
    .target(
      name: "Web",
      dependencies: [
        "Storage", "Cryptography", "Core", "Replication", "Auth", "Records", "Views", "Schema", "CLICore",
        "CLIApp", .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // The app's database: every feature's tables in migration order, and the synced datasets.
    .target(name: "Schema", dependencies: ["Storage", "Replication", "Auth", "Records", "Views", "Sync"]),
    // What every command line shares: options, output, errors, the command that runs. It knows
    // no records, so that vital-serve links neither the records nor the schema.
    .target(
      name: "CLICore",
      dependencies: ["Storage", "Core", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
    // What vital and vital-sync open: the data folder, the database, the session, the clock.
    .target(
      name: "CLIApp",
      dependencies: [
        "Storage", "Core", "Replication", "Auth", "AtRest", "Schema", "CLICore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .executableTarget(
      name: "vital",
      dependencies: [
        "Storage", "Cryptography", "Core", "Replication", "Auth", "AtRest", "Records", "Views", "Interchange", "Sync",
        "Schema",
        "CLICore",
        "CLIApp",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/CLI"
    ),
    // `vital remote` and `vital sync` run this binary: the HTTP client (FoundationNetworking and
    // libcurl) costs every other command several milliseconds of start-up if linked into vital.
    .executableTarget(
      name: "vital-sync",
      dependencies: [
        "Storage", "Cryptography", "Core", "Replication", "Auth", "Records", "Sync", "SyncHTTP", "Schema", "CLICore",
        "CLIApp", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/SyncCLI"
    ),
    // The server in its own process image: `vital serve` executes it, so the everyday `vital`
    // binary starts without loading the HTTP server stack.
    .executableTarget(
      name: "vital-serve",
      dependencies: [
        "Storage", "Replication", "AtRest", "SyncServer", "CLICore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ], path: "Sources/Serve"),
    // `vital web` executes this binary, so the everyday `vital` starts without the HTTP server.
    .executableTarget(
      name: "vital-web",
      dependencies: ["Web", "CLICore", "CLIApp", .product(name: "ArgumentParser", package: "swift-argument-parser")],
      path: "Sources/WebCLI"),
    // Benchmarks live in their own executable so the shipped binary carries no bench code.
    .executableTarget(
      name: "vital-bench", dependencies: ["Storage", "Cryptography", "Core", "Replication", "Auth", "Sync", "Schema"],
      path: "Sources/Bench"),
    // A helper the crash-safety test kills with SIGKILL in the middle of a write.
    .executableTarget(name: "storage-writer", dependencies: ["Storage"], path: "Tests/StorageWriter"),
    .testTarget(name: "StorageTests", dependencies: ["Storage", "Replication", "Schema", "storage-writer"]),
    .target(name: "TestImages", path: "Tests/TestImages"),
    .target(name: "TestServer", path: "Tests/TestServer"),
    .testTarget(
      name: "SyncTests",
      dependencies: [
        "Sync", "SyncHTTP", "SyncServer", "Storage", "Cryptography", "Core", "Replication", "Auth", "Records", "Views",
        "Interchange", "Schema",
        "vital",
        "vital-serve", "vital-sync",
        "TestServer",
        .product(name: "PropertyBased", package: "swift-property-based"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]),
    .testTarget(name: "CryptographyTests", dependencies: ["Cryptography"]),
    // The sealing VFS under SQLite's real workload, the header, the keys and the keyring.
    .testTarget(name: "AtRestTests", dependencies: ["AtRest", "Storage", "Cryptography", "Auth"]),
    // Clocks, the merge, the outbox and pages applied in bulk, over Vital's real schema.
    .testTarget(name: "ReplicationTests", dependencies: ["Replication", "Storage", "Core", "Schema"]),
    .testTarget(name: "AuthTests", dependencies: ["Auth", "Cryptography", "Core", "Storage", "Schema"]),
    // Reads Sources/ and docs/architecture.md: which module may import which.
    .testTarget(name: "ArchitectureTests"),
    .testTarget(
      name: "RecordsTests",
      dependencies: [
        "Records", "Views", "Interchange", "Core", "Cryptography", "Replication", "Auth", "Storage", "Schema",
        "TestImages",
      ]),
    .testTarget(
      name: "CLITests",
      dependencies: [
        "vital", "vital-serve", "vital-sync", "vital-web", "Storage", "Auth", "AtRest", "Cryptography", "Sync",
        "TestImages",
        "TestServer",
      ]),
  ]
)
