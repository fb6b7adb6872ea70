import SystemPOSIX

/// A response whose body goes out over time (Server-Sent Events): the handler writes when it has
/// something, the connection sends it, and the connection closes when the stream ends. The body is
/// delimited by the close (`Connection: close`, no `Content-Length`), which every HTTP/1.1 client
/// and `EventSource` read. Writes before the connection took the stream are kept and sent first.
public final class HTTPStream: Sendable {
    private struct State: Sendable {
        var connection: HTTPConnection?
        var early: [UInt8] = []
        var ended = false
        var connectionGone = false
        var onClose: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    private let pending = Atomic<Int>(0)

    public init() {}

    /// Queues `bytes` to be sent; never blocks. Ignored once the stream has ended.
    ///
    /// The hand-over to the connection happens under the lock (it only enqueues on the
    /// connection's queue): writes from different threads reach the socket in the order they took
    /// the lock, and none overtakes the early bytes `attach` hands over.
    public func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        state.withLock { s in
            guard !s.ended && !s.connectionGone else { return }
            pending.add(bytes.count, ordering: .relaxed)
            if let connection = s.connection { connection.streamWrite(bytes) } else { s.early += bytes }
        }
    }

    /// Ends the stream: what was written is sent, then the connection closes.
    public func close() {
        state.withLock { s in
            guard !s.ended else { return }
            s.ended = true
            s.connection?.streamEnd()
        }
    }

    /// Bytes written and not yet on the socket: how far behind the reader is.
    public var pendingBytes: Int { pending.load(ordering: .relaxed) }

    /// Runs `handler` once the connection is gone (the client left, the server stopped, or after
    /// `close()`); at once if it already is.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if s.connectionGone { return true }
            s.onClose.append(handler)
            return false
        }
        if now { handler() }
    }

    // MARK: the connection's side

    /// The connection takes the stream after sending its head: early writes go out first.
    func attach(_ connection: HTTPConnection) {
        state.withLock { s in
            s.connection = connection
            if !s.early.isEmpty { connection.streamWrite(s.early) }
            s.early = []
            if s.ended { connection.streamEnd() }
        }
    }

    /// Called on the connection's queue after a write reached the socket (or was dropped).
    func sent(_ count: Int) { pending.subtract(count, ordering: .relaxed) }

    /// Called once when the connection closes.
    func connectionClosed() {
        let handlers = state.withLock { s -> [@Sendable () -> Void] in
            s.connectionGone = true
            s.connection = nil
            defer { s.onClose = [] }
            return s.onClose
        }
        for handler in handlers { handler() }
    }
}
