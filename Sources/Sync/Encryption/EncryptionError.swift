/// Why end-to-end encrypted sync stopped. No message names a value, a passphrase or a key.
public enum EncryptionError: Error, Equatable, CustomStringConvertible {
  case wrongPassphrase
  case damagedKey
  /// A sealed value, id or blob did not open: changed bits, or moved from another record.
  case tampered(dataset: String)
  /// The server sent a value in the clear for an account whose values are all sealed.
  case notSealed(dataset: String)
  /// Sealed in a format a later Vital made (`e3.`, ...).
  case newerFormat(dataset: String)
  case passphraseNeeded
  case alreadyOn
  case notOn
  case otherKey

  public var description: String {
    switch self {
    case .wrongPassphrase: return "wrong sync passphrase; nothing was synced"
    case .damagedKey: return "the sync key stored on the server is damaged or not one Vital made; nothing was synced"
    case .tampered(let dataset):
      return
        "a \(dataset) record from the server failed its integrity check (changed, truncated or moved from "
        + "another record); nothing from that page was applied and the local records are untouched"
    case .notSealed(let dataset):
      return
        "the server sent a \(dataset) record in the clear although this account is end-to-end encrypted; "
        + "nothing from that page was applied"
    case .newerFormat(let dataset):
      return
        "a \(dataset) record from the server was sealed by a newer Vital; update Vital on this device and "
        + "sync again (nothing from that page was applied)"
    case .passphraseNeeded:
      return
        "this account's sync data is end-to-end encrypted; enter its passphrase: run 'vital sync' on a "
        + "terminal, or with --passphrase-stdin"
    case .alreadyOn:
      return "end-to-end encryption is already on for this account; 'vital remote passphrase' changes the passphrase"
    case .notOn:
      return "end-to-end encryption is off for this account; 'vital remote encrypt' turns it on"
    case .otherKey:
      return
        "the server holds another sync key for this account (encryption was turned on from another device); "
        + "run 'vital remote login' to enter that passphrase"
    }
  }
}
