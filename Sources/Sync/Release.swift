/// Which Vital this is: the release every binary reports, and the sync protocol it speaks
/// (docs/sync-protocol.md). The protocol number changes only when a server and a client of
/// different numbers could no longer sync.
public enum Release {
  public static let version = "0.1.0"
  public static let syncProtocol = 1
}
