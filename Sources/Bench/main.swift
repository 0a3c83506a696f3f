// vital-bench: the Swift halves of scripts/bench.
//   vital-bench storage DB ROWS   Storage inserts and lookups (compare scripts/bench-c/storage.c)
//   vital-bench kdf RUNS          the scrypt KDF at the standard cost, one time per line
import Auth
import Foundation

let arguments = CommandLine.arguments
switch (arguments.dropFirst().first, arguments.count) {
case ("storage", 4):
  guard let rows = Int(arguments[3]), rows > 0 else { exit(64) }
  try storageBench(path: arguments[2], rows: rows)
case ("kdf", 3):
  guard let runs = Int(arguments[2]), runs > 0 else { exit(64) }
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = try PasswordHasher.standard.hash("a benchmark passphrase")
    print("kdf_seconds \(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)")
  }
default:
  FileHandle.standardError.write(Data("usage: vital-bench storage DB ROWS | kdf RUNS\n".utf8))
  exit(64)
}
