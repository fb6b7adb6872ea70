import SystemPOSIX

/// What a server's connections hold for clients that do not keep up, counted across all of them:
/// answers written and not yet taken by the client. One per server, shared by its connections,
/// which count only what is left after a send (nothing, on a client that reads), so a request on
/// the hot path costs no atomic. Past `limit`, a connection that still owes its client output
/// takes no further request, and an event stream behind is closed, until the backlog drains.
final class HeldBytes: Sendable {
    let limit: Int
    private let output = Atomic<Int>(0)
    /// The most output held at once, and the most requests one connection held read ahead.
    private let highWater = Mutex<(output: Int, readAhead: Int)>((0, 0))

    init(limit: Int) { self.limit = max(1, limit) }

    /// A connection's unsent output changed by `delta` bytes.
    func addOutput(_ delta: Int) {
        let now = output.add(delta, ordering: .relaxed).newValue
        if delta > 0 { highWater.withLock { $0.output = max($0.output, now) } }
    }

    /// Whether the output held, all connections together, is over the limit.
    var isOverLimit: Bool { output.load(ordering: .relaxed) > limit }

    var outputBytes: Int { output.load(ordering: .relaxed) }
    var outputHighWaterBytes: Int { highWater.withLock { $0.output } }

    /// A connection held `bytes` of requests read and not yet served (told only past a read
    /// chunk, so not on the hot path).
    func noteReadAhead(_ bytes: Int) { highWater.withLock { $0.readAhead = max($0.readAhead, bytes) } }
    var readAheadHighWaterBytes: Int { highWater.withLock { $0.readAhead } }
}
