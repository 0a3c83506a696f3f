import Foundation
import Hummingbird
import Storage
import Sync

/// `POST /v1/sync`: the push and the pull in one request. The token is checked in the sync's own
/// first query; a request refused before that point is refused as 401 when its token opens no
/// account, so that without a login nothing is learnt from the answers.
extension SyncAPI {
  func sync(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
    let token = try Authenticate.tokenDigest(request)
    let now = configuration.now()
    let body: SyncRequest
    let changes: [ValidatedChange]
    do {
      (body, changes) = try await read(request, now: now)
    } catch {
      try await requireAccount(token, now: now)
      throw error
    }
    do {
      let page: SyncPage
      switch try await repository.sync(
        tokenSHA256: token, now: now, since: body.since, changes: changes,
        page: PageBounds(count: configuration.pageSize, bytes: configuration.pageBytes), quota: configuration.quota,
        keyID: body.keyID)
      {
      case .synced(let synced): page = synced
      case .unknownToken: throw Authenticate.unknownToken
      case .suspended: throw APIError(.forbidden, .suspended, Authenticate.suspended)
      }
      configuration.metrics.syncs.increment()
      configuration.metrics.recordsPushed.increment(by: Int64(changes.count))
      configuration.metrics.recordsPulled.increment(by: Int64(page.changesJSON.count))
      // Records are stored as they travel, their fields sharing clocks; an older device reads a
      // clock in every field.
      let changes = body.sharedClocks ? page.changesJSON : try page.changesJSON.map(WireJSON.withClockPerField)
      return Answer.json(
        .ok,
        [
          "accepted": .int(page.accepted), "changes": .storedArray(changes), "cursor": .string(page.cursor),
          "encrypted": .bool(page.encrypted), "has_more": .bool(page.hasMore),
          "limits": .stored(
            "{\"body_bytes\":\(configuration.bodyLimit),\"value_bytes\":\(configuration.valueLimit)}"),
          "shared_clocks": .bool(true),
        ])
    } catch SyncRepositoryError.quotaExceeded(let usage) {
      throw Self.quotaError(usage)
    } catch SyncRepositoryError.resyncRequired {
      throw APIError(
        .conflict, .resyncRequired, "resync required: this cursor cannot be served; sync again from the start")
    } catch SyncRepositoryError.keyRotated {
      throw APIError(
        .conflict, .keyRotated,
        "key rotated: this account's records are sealed under a new key; enter the sync passphrase on this device")
    } catch SyncRepositoryError.cleartextRefused {
      throw APIError(
        .conflict, .encrypted,
        "end-to-end encrypted: this account takes only sealed values; enter the sync passphrase on this device"
      )
    }
  }

  /// A sync request's body, read and checked, and its changes; or the refusal that tells the
  /// device what to do (stamp its clock anew, set a record aside).
  func read(_ request: Request, now: Date) async throws -> (SyncRequest, [ValidatedChange]) {
    var request = request
    let data = Data(try await request.collectBody(upTo: configuration.bodyLimit).readableBytesView)
    // The fast reader takes every well-formed request; JSONDecoder reads the rest, to say what is
    // wrong. What it reads there is refused all the same: the two need not agree on every text
    // (duplicate keys), and only one reader decides what a request holds.
    guard let body = try? WireJSON.syncRequest(data) else {
      _ = try decode(SyncRequest.self, data)
      throw APIError(.badRequest, .badRequest, "the body is not the JSON this endpoint takes (a malformed change)")
    }
    guard body.changes.count <= configuration.maxChangesPerRequest else {
      throw APIError(.contentTooLarge, .tooLarge, "at most \(configuration.maxChangesPerRequest) changes per request")
    }
    var changes: [ValidatedChange] = []
    changes.reserveCapacity(body.changes.count)
    var rules = RuleCheck(configuration.rules)
    var namesChecked: [String] = []
    var clock = LastClock()
    for (index, change) in body.changes.enumerated() {
      do {
        try change.check(now: now, maxValueBytes: configuration.valueLimit, namesChecked: namesChecked, clock: &clock)
        namesChecked = change.fields.keys
        try rules.check(change)
        changes.append(
          ValidatedChange(
            dataset: change.dataset, id: change.id, fields: change.fields, sealed: change.isSealed,
            sent: index < body.sentFields.count ? body.sentFields[index] : nil))
      } catch ChangeSetError.clockAhead(let reading) {
        // The device's clock ran ahead: it is told the server's time, to stamp its changes anew.
        var refusal = APIError(.badRequest, .clockAhead, ChangeSetError.clockAhead(reading).description)
        refusal.serverTime = now
        throw refusal
      } catch let error as ChangeSetError {
        // A record named is set aside by the device, which sends the rest.
        switch error {
        case .valueTooLarge(let dataset, let id, _, _, _):
          var refusal = APIError(.contentTooLarge, .valueTooLarge, error.description)
          (refusal.dataset, refusal.id) = (dataset, id)
          throw refusal
        case .invalidValue(let dataset, let id, let field, _):
          var refusal = APIError(.badRequest, .invalidValue, error.description + "; nothing of the request was kept")
          (refusal.dataset, refusal.id, refusal.field) = (dataset, id, field)
          throw refusal
        default:
          throw APIError(.badRequest, .badRequest, error.description)
        }
      }
    }
    return (body, changes)
  }

  /// 401 or 403 unless the token opens an account that may sync.
  func requireAccount(_ tokenSHA256: String, now: Date) async throws {
    guard let user = try await repository.user(tokenSHA256: tokenSHA256, now: now) else {
      throw Authenticate.unknownToken
    }
    if user.suspended { throw APIError(.forbidden, .suspended, Authenticate.suspended) }
  }
}
