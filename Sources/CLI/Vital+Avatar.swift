import ArgumentParser
import CLIApp
import CLICore
import Foundation
import Records

extension Vital.ProfileCommand {
  struct AvatarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "avatar",
      abstract: "Set, export or clear your profile picture (PNG or JPEG, at most 5 MiB and 4096 x 4096).",
      subcommands: [SetAvatar.self, Export.self, Clear.self]
    )
  }

  struct SetAvatar: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set", abstract: "Use FILE as your avatar; anything else than a sound PNG or JPEG is refused.",
      discussion: """
        Examples:
          vital profile avatar set ~/Pictures/me.jpg
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A PNG or JPEG image.") var file: String

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      let avatar = try ProfileStore(db: app.db, account: account, now: app.now).setAvatar(AvatarRules.read(path: file))
      try app.output.show(avatar.json) {
        "avatar set: \(avatar.mime) \(avatar.width)x\(avatar.height), \(avatar.bytes) bytes"
      }
    }
  }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export", abstract: "Write the stored avatar bytes to a file.",
      discussion: """
        Examples:
          vital profile avatar export --out avatar.png
        """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "Where to write it ('-' for stdout).") var out: String

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      let data = try ProfileStore(db: app.db, account: account, now: app.now).avatarData()
      if out == "-" {
        FileHandle.standardOutput.write(data)
        return
      }
      try app.writePrivateFile(out, data)
      try app.output.show(.object([("path", .string(out)), ("bytes", .int(data.count))])) {
        "wrote \(data.count) bytes to \(out)"
      }
    }
  }

  struct Clear: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "clear", abstract: "Remove your avatar.",
      discussion: """
        Examples:
          vital profile avatar clear
        """)
    @OptionGroup var global: GlobalOptions

    func run() async throws {
      let app = try App(global)
      let account = try app.requireAccount()
      try ProfileStore(db: app.db, account: account, now: app.now).clearAvatar()
      try app.output.show(.object([("avatar", .null)])) { "avatar removed" }
    }
  }
}
