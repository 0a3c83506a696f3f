import Foundation
import Testing

@testable import Auth

@Suite struct PolicyTests {
  @Test func lengthIsCountedAfterNormalisation() {
    #expect(throws: PasswordPolicy.Violation.tooShort) { try PasswordPolicy.check("seven77") }
    #expect(throws: Never.self) { try PasswordPolicy.check("eight888x") }
    // Four letters with combining accents: eight code points typed, four after NFC.
    #expect(throws: PasswordPolicy.Violation.tooShort) { try PasswordPolicy.check("e\u{301}e\u{301}e\u{301}e\u{301}") }
  }

  @Test func tooLongIsRefused() {
    #expect(throws: Never.self) { try PasswordPolicy.check(String(repeating: "a1", count: 512)) }
    #expect(throws: PasswordPolicy.Violation.tooLong) { try PasswordPolicy.check(String(repeating: "a", count: 1025)) }
  }

  @Test func commonPasswordsAreRefusedWhateverTheirCase() {
    for password in ["password", "password1", "PassWord1", "iloveyou", "trustno1", "12345678"] {
      #expect(throws: PasswordPolicy.Violation.common, "\(password)") { try PasswordPolicy.check(password) }
    }
  }

  @Test func oneCharacterOverAndOverIsRefused() {
    for password in ["aaaaaaaa", "        ", " \t  \t   ", "ßßßßßßßßß", String(repeating: "🍐", count: 12)] {
      #expect(throws: PasswordPolicy.Violation.repetitive, "\(password.debugDescription)") {
        try PasswordPolicy.check(password)
      }
    }
    #expect(throws: Never.self) { try PasswordPolicy.check("aaaaaaab") }
    #expect(throws: Never.self) { try PasswordPolicy.check("  a long way  ") }
  }

  @Test func theBlocklistHasAtLeastTenThousandEntries() {
    #expect(PasswordPolicy.blocklist.count >= 10_000)
    #expect(PasswordPolicy.blocklist.allSatisfy { $0.count >= 8 })
    // The first and the last line of the embedded file: all of it is read, and nothing more.
    #expect(PasswordPolicy.blocklist.contains("password") && PasswordPolicy.blocklist.contains("11234567"))
    #expect(!PasswordPolicy.blocklist.contains(""))
  }

  @Test func aLongUnicodePassphraseIsAccepted() {
    #expect(throws: Never.self) { try PasswordPolicy.check("Грушевый сад 🍐 у моря, dreißig Jahre später") }
  }

  @Test func noCompositionRules() {
    #expect(throws: Never.self) { try PasswordPolicy.check("all lower case words here") }
  }

  @Test func emailsAreTrimmedAndLowercased() throws {
    #expect(try Email.normalize("  Ann.Example@Mail.ORG \n") == "ann.example@mail.org")
    for bad in [
      "", "ann", "@example.org", "ann@", "ann@example", "ann@@example.org", "a b@example.org", "ann@.org",
      "ann@example..org", "ann@example.org\u{0}x",
    ] {
      #expect(throws: Email.Invalid.self, "\(bad)") { try Email.normalize(bad) }
    }
  }
}
