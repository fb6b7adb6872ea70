import Dispatch
import SystemPOSIX

/// An HTTP/1.1 server on POSIX sockets and Dispatch. No thread per connection: connections are
/// spread over one event loop per core (a serial queue and a poller behind one dispatch source,
/// see `HTTPEventLoop`). The accept path only accepts and hands the socket over; every error
/// `accept` can return is survived.
public final class HTTPServer: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var limits: HTTPLimits
        public var backlog: Int32
        /// The bodies of the answers the server gives on its own (bad request, timeout, overload).
        public var errorRenderer: HTTPErrorRenderer
        /// TLS for an HTTPS port; nil serves plain HTTP. From accept, the handshake and the first
        /// request's head must arrive within the header timeout.
        public var security: (any HTTPWireSecurity)?
        /// Event loops serving connections; 0 means one per processor.
        public var eventLoops: Int
        /// Told of each answer the server gives on its own to a request it read at least the
        /// request line of (400, 408, 413, 414, 431), on the connection's queue; must not block.
        public var refusalObserver: (@Sendable (HTTPRefusal) -> Void)?
        /// Told each time an accepted connection is closed before it is served (its poller refused
        /// it, or its TLS session could not be made), with whether the reason is new, so the
        /// application counts every one and says each reason once.
        public var setupFailureObserver: (@Sendable (_ reason: String, _ isNew: Bool) -> Void)?

        public init(
            host: String = "127.0.0.1", port: Int = 8080, limits: HTTPLimits = HTTPLimits(), backlog: Int32 = 1024,
            errorRenderer: HTTPErrorRenderer = .plainText, security: (any HTTPWireSecurity)? = nil, eventLoops: Int = 0
        ) {
            self.eventLoops = eventLoops
            self.security = security
            self.host = host
            self.port = port
            self.limits = limits
            self.backlog = backlog
            self.errorRenderer = errorRenderer
        }
    }

    public let configuration: Configuration
    private let responder: any HTTPResponder
    /// What the connections hold for slow readers, together (`HTTPLimits.maxHeldOutputBytes`).
    private let held: HeldBytes
    private let acceptQueue = DispatchQueue(label: "http.accept")
    private let state = Mutex(State())

    private struct State: ~Copyable {
        var listener: HTTPListener?
        var loops: [HTTPEventLoop] = []
        var port = 0
        var connections: [Int: HTTPConnection] = [:]
        var nextConnectionID = 0
        var stopping = false
        /// Accepted sockets the poller refused, and the last refusal's cause.
        var setupFailures = 0
        var lastSetupFailure: String?
        /// The reasons already told to `setupFailureObserver`: each is said once.
        var toldSetupFailures: Set<String> = []
        /// Shutdowns waiting for the last connection to close: signalled by the one that does.
        var drained: [DispatchSemaphore] = []
    }

    /// The canned answer for connections past the limit: built once, sent without parsing anything.
    private let overloadedResponse: [UInt8]

    /// SIGPIPE ignored process-wide, once: a peer that vanishes mid-write must cost an EPIPE, not
    /// the process. Sends are SIGPIPE-free anyway (see SystemPOSIX), so this is belt and braces.
    private static let ignoreSIGPIPE: Void = System.ignoreBrokenPipe()

    public init(configuration: Configuration = Configuration(), responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
        held = HeldBytes(limit: configuration.limits.maxHeldOutputBytes)
        var bytes: [UInt8] = []
        configuration.errorRenderer.response(.serviceUnavailable, reason: "too many connections")
            .serialize(into: &bytes, includeBody: true, closeConnection: true)
        overloadedResponse = bytes
    }

    /// Binds, listens and starts accepting. Returns once the socket is listening.
    public func start() throws(HTTPServerError) {
        Self.ignoreSIGPIPE
        let fd: Int32
        do {
            fd = try System.listen(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
        } catch {
            throw HTTPServerError(listening: configuration.host, port: configuration.port, error)
        }
        var loops: [HTTPEventLoop] = []
        let count = configuration.eventLoops > 0 ? configuration.eventLoops : System.processorCount()
        for n in 0..<count {
            do {
                loops.append(try HTTPEventLoop(label: "http.loop.\(n)"))
            } catch {
                for loop in loops { loop.stop() }
                System.close(fd)
                throw .cannotStartEventLoop(reason: error.description)
            }
        }
        let listener = HTTPListener(fd: fd, queue: acceptQueue) { [weak self] fd, remote in
            self?.admit(fd, remote: remote)
        } sweep: { [weak self] in
            self?.sweepDeadlines()
        }
        let started = state.withLock { state -> Bool in
            guard state.listener == nil && !state.stopping else { return false }
            state.listener = listener
            state.loops = loops
            state.port = System.localPort(fd)
            return true
        }
        guard started else {
            for loop in loops { loop.stop() }
            System.close(fd)
            throw .alreadyStarted
        }
        acceptQueue.async { listener.start() }
    }

    /// Answers written and not yet taken by their clients, all connections together; the most
    /// there ever was; and the most requests one connection held read ahead of serving them
    /// (for tests and diagnostics: the bounds `HTTPLimits` sets).
    public var heldOutputBytes: Int { held.outputBytes }
    public var heldOutputHighWaterBytes: Int { held.outputHighWaterBytes }
    public var readAheadHighWaterBytes: Int { held.readAheadHighWaterBytes }

    /// The port actually bound (useful after asking for port 0).
    public var port: Int { state.withLock { $0.port } }

    public var openConnections: Int { state.withLock { $0.connections.count } }

    /// Accepted connections closed at once because their event loop's poller refused the socket
    /// (out of descriptors or kernel memory), and the last refusal, e.g. "epoll_ctl: No space left
    /// on device".
    public var connectionSetupFailures: (count: Int, last: String?) {
        state.withLock { ($0.setupFailures, $0.lastSetupFailure) }
    }

    // MARK: - Accepting

    private func admit(_ fd: Int32, remote: String) {
        let limits = configuration.limits
        var evicted: HTTPConnection?
        let connection: HTTPConnection? = state.withLock { state in
            guard !state.stopping, !state.loops.isEmpty else { return nil }
            if state.connections.count >= limits.maxConnections {
                // Full: the oldest connection that has sent nothing for a while makes room (a
                // thousand silent sockets must not keep out the one that asks `/__admin/health`
                // for the whole header timeout); only when none is silent do newcomers get the 503.
                let silentSince = HTTPConnection.now() - min(5, limits.headerTimeoutSeconds / 2)
                guard
                    let silent = state.connections.values
                        .filter({ $0.acceptedAt <= silentSince && !$0.hasSpoken.load(ordering: .relaxed) })
                        .min(by: { $0.id < $1.id })
                else { return nil }
                state.connections[silent.id] = nil
                evicted = silent
            }
            state.nextConnectionID += 1
            let connection = HTTPConnection(
                id: state.nextConnectionID,
                io: SocketConnectionIO(fd: fd, loop: state.loops[state.nextConnectionID % state.loops.count]),
                remoteAddress: remote, responder: responder, limits: limits,
                errorRenderer: configuration.errorRenderer, security: configuration.security,
                refusalObserver: configuration.refusalObserver, held: held,
                onClose: { [weak self] closed in self?.forget(closed) }
            )
            state.connections[connection.id] = connection
            return connection
        }
        if let evicted { evicted.queue.async { evicted.close() } }
        guard let connection else {
            refuse(fd)
            return
        }
        System.setNoDelay(fd)
        connection.queue.async { [weak self] in
            guard let failure = connection.start(), let self else { return }
            let isNew = self.state.withLock { state in
                state.setupFailures += 1
                state.lastSetupFailure = failure
                return state.toldSetupFailures.insert(failure).inserted
            }
            self.configuration.setupFailureObserver?(failure, isNew)
        }
    }

    /// Past the connection limit: a canned 503, our side shut, and the socket closed shortly after
    /// so that the client's request bytes are read and the 503 is not lost to a reset.
    private func refuse(_ fd: Int32) {
        _ = overloadedResponse.withUnsafeBytes { try? System.send(fd, $0.baseAddress!, $0.count) }
        System.shutdownWrite(fd)
        acceptQueue.asyncAfter(deadline: .now() + .milliseconds(200)) {
            var scratch = [UInt8](repeating: 0, count: 4096)
            while case .done(let count)? = scratch.withUnsafeMutableBytes({
                try? System.read(fd, $0.baseAddress!, $0.count)
            }),
                count > 0
            {}
            System.close(fd)
        }
    }

    private func forget(_ connection: HTTPConnection) {
        let drained = state.withLock { state -> [DispatchSemaphore] in
            state.connections.removeValue(forKey: connection.id)
            guard state.stopping && state.connections.isEmpty else { return [] }
            defer { state.drained = [] }
            return state.drained
        }
        for waiting in drained { waiting.signal() }
    }

    private func sweepDeadlines() {
        let now = HTTPConnection.now()
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections {
            connection.queue.async { connection.checkDeadline(now: now) }
        }
    }

    // MARK: - Stopping

    /// Stops accepting, lets requests in flight finish (their answers carry `Connection: close`),
    /// closes idle connections, and returns when all are closed or `gracePeriod` has passed, after
    /// which the stragglers are closed. Blocks the caller; never call it from a connection's queue.
    /// It waits on the last connection's close, not on a clock: a server with none returns at once.
    public func shutdown(gracePeriod: Double = 5) {
        let drained = DispatchSemaphore(value: 0)
        let (listener, connections) = state.withLock { state in
            state.stopping = true
            let taken = (state.listener, Array(state.connections.values))
            state.listener = nil
            if !state.connections.isEmpty { state.drained.append(drained) }
            return taken
        }
        if let listener { acceptQueue.sync { listener.stop() } }
        for connection in connections {
            connection.queue.async { connection.beginShutdown() }
        }
        if !connections.isEmpty {
            _ = drained.wait(timeout: .now() + .microseconds(Int(max(0, min(gracePeriod, 86_400)) * 1_000_000)))
        }
        let stragglers = state.withLock { Array($0.connections.values) }
        for connection in stragglers {
            connection.queue.sync { connection.close() }
        }
        let loops = state.withLock { state in
            defer { state.loops = [] }
            return state.loops
        }
        for loop in loops { loop.queue.sync { loop.stop() } }
    }
}
