import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes
import Prometheus

/// Bounds on a server's connections: how many at once, how many from one address, and how long
/// a request may take to arrive. Idle connections (open, no request under way) are the first
/// to go: when a bound is reached the oldest idle one is closed to make room, so that sockets
/// left open by a careless or hostile client never keep `/healthz` or a real sync out.
public struct ConnectionLimits: Sendable {
  /// Connections open at once; never more than the process's file limit leaves room for.
  public var total: Int
  /// Connections open at once from one address (a reverse proxy is one address: raise it there).
  public var perAddress: Int
  /// From a request's first line to its last body byte.
  public var requestTimeout: Duration
  /// An open connection with no request under way is closed after this long.
  public var idleTimeout: Duration

  public init(
    total: Int = 4096, perAddress: Int = 256, requestTimeout: Duration = .seconds(60),
    idleTimeout: Duration = .seconds(30)
  ) {
    self.idleTimeout = idleTimeout
    self.total = total
    self.perAddress = perAddress
    self.requestTimeout = requestTimeout
  }

  /// `total`, lowered to what the open-file limit allows with room for the database and logs.
  var effectiveTotal: Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(Int32.max) else {
      return total
    }
    return max(1, min(total, Int(limit.rlim_cur) - 64))
  }
}

/// Every open connection of one server, to count them and to find the oldest idle one.
final class ConnectionRegistry: Sendable {
  struct Entry {
    let channel: any Channel
    let address: String
    var busy = false
    var lastActive: UInt64
  }

  struct State {
    var entries: [ObjectIdentifier: Entry] = [:]
    var perAddress: [String: Int] = [:]
    var tick: UInt64 = 0
  }

  let limits: ConnectionLimits
  let total: Int
  private let state = NIOLockedValueBox(State())

  /// Set to the number of open connections at each change, for the metrics.
  private let openGauge: Gauge?

  init(limits: ConnectionLimits, open gauge: Gauge? = nil) {
    self.limits = limits
    self.total = limits.effectiveTotal
    self.openGauge = gauge
  }

  var count: Int { state.withLockedValue { $0.entries.count } }

  /// Admits `channel`, closing the oldest idle connections that stand in its way (the same
  /// address's first); false when every connection in the way is busy: it is refused.
  func open(_ channel: any Channel) -> Bool {
    let address = channel.remoteAddress?.ipAddress ?? "unknown"
    var evict: [any Channel] = []
    let admitted = state.withLockedValue { state -> Bool in
      func evictOldestIdle(from address: String?) -> Bool {
        let idle = state.entries.filter { !$0.value.busy && (address == nil || $0.value.address == address) }
        guard let oldest = idle.min(by: { $0.value.lastActive < $1.value.lastActive }) else { return false }
        state.entries[oldest.key] = nil
        state.perAddress[oldest.value.address, default: 1] -= 1
        evict.append(oldest.value.channel)
        return true
      }
      if state.perAddress[address, default: 0] >= limits.perAddress, !evictOldestIdle(from: address) { return false }
      if state.entries.count >= total, !evictOldestIdle(from: nil) { return false }
      state.tick += 1
      state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, address: address, lastActive: state.tick)
      state.perAddress[address, default: 0] += 1
      return true
    }
    openGauge?.set(Double(count))
    for channel in evict { channel.close(promise: nil) }
    return admitted
  }

  func close(_ channel: any Channel) {
    state.withLockedValue { state in
      guard let entry = state.entries.removeValue(forKey: ObjectIdentifier(channel)) else { return }
      state.perAddress[entry.address, default: 1] -= 1
      if state.perAddress[entry.address] == 0 { state.perAddress[entry.address] = nil }
    }
    openGauge?.set(Double(count))
  }

  func setBusy(_ channel: any Channel, _ busy: Bool) {
    state.withLockedValue { state in
      state.tick += 1
      state.entries[ObjectIdentifier(channel)]?.busy = busy
      state.entries[ObjectIdentifier(channel)]?.lastActive = state.tick
    }
  }
}

/// In each connection's pipeline, after HTTP decoding: registers the connection, marks it busy
/// from a request's head to its response's end, and closes it when a request takes longer
/// than `requestTimeout` to arrive (a body sent a byte a minute).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  let registry: ConnectionRegistry
  private var registered = false
  private var deadline: Scheduled<Void>?

  init(registry: ConnectionRegistry) {
    self.registry = registry
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { register(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    if !registered { register(context) }
    context.fireChannelActive()
  }

  private func register(_ context: ChannelHandlerContext) {
    registered = true
    if !registry.open(context.channel) { context.close(promise: nil) }
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadline?.cancel()
    registry.close(context.channel)
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      registry.setBusy(context.channel, true)
      let channel = context.channel
      deadline?.cancel()
      deadline = context.eventLoop.scheduleTask(in: TimeAmount(registry.limits.requestTimeout)) {
        channel.close(promise: nil)
      }
    case .end:
      deadline?.cancel()
      deadline = nil
    case .body:
      break
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { registry.setBusy(context.channel, false) }
    context.write(data, promise: promise)
  }
}
