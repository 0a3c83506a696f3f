import Foundation

/// What can go wrong with accounts and sessions. Messages never hold a password or a token.
public enum AuthError: Error, Equatable, CustomStringConvertible {
  case emailTaken
  /// Wrong password and unknown email read the same, so neither tells which accounts exist.
  case wrongCredentials
  case locked(minutes: Int)
  case notLoggedIn
  case sessionExpired
  case wrongPassword

  public var description: String {
    switch self {
    case .emailTaken:
      return "an account with that email already exists here; log in with 'vital account login'"
    case .wrongCredentials:
      return "wrong email or password"
    case .locked(let minutes):
      return "too many failed logins; try again in \(minutes) minute\(minutes == 1 ? "" : "s")"
    case .notLoggedIn:
      return
        "not logged in; run 'vital account register' or 'vital account login' ('vital remote join URL --email E' sets up an account you keep on a sync server)"
    case .sessionExpired:
      return "your session expired after 30 days without use; run 'vital account login'"
    case .wrongPassword:
      return "wrong password"
    }
  }
}
