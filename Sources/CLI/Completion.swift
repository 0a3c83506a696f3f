import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records

/// Completions that need the user's data: run by the shell on TAB, through `vital` itself.
enum Completion {
  /// The names of the logged-in account's medications, in the home the command line names.
  static let medicationNames = CompletionKind.custom { words, index, prefix in
    // The word being completed, from the words themselves: the prefix handed in is not always
    // that word's when options follow it.
    let typed =
      index < words.count && words[index].hasPrefix(prefix) ? prefix : (index < words.count ? words[index] : "")
    var options = ["--home"]
    if let index = words.firstIndex(of: "--home"), index + 1 < words.count { options.append(words[index + 1]) }
    guard let global = try? GlobalOptions.parse(options.count == 2 ? options : []),
      let app = try? App(global), let account = app.currentAccount(),
      let names = try? MedicationStore(db: app.db, account: account, now: app.now, calendar: app.calendar).list()
        .map(\.name)
    else { return [] }
    return names.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
  }

  /// What `vital remote` and `vital sync` take: they run in the sibling `vital-sync`, so the
  /// words are listed here for the shell.
  static let remoteWords = CompletionKind.list([
    "set", "join", "register", "login", "status", "devices", "revoke", "encrypt", "passphrase", "rotate-key", "delete",
    "--password-stdin",
    "--passphrase-stdin", "--device-name", "--invite", "--email", "--json", "--home", "--yes",
  ])
  static let syncWords = CompletionKind.list(["--passphrase-stdin", "--json", "--home"])
}
