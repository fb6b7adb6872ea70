import Dispatch
import SystemPOSIX

@testable import HTTPCore

/// A connection's socket in memory: what the client sent waits in `inbound`, what the connection
/// sent lands in `received`, and the client takes at most `room` bytes before a send would block.
/// Every call comes on `queue` (the connection's), so tests read and change it there.
final class MemoryConnectionIO: ConnectionIO, @unchecked Sendable {
    let queue = DispatchQueue(label: "memory-connection")
    var inbound: [UInt8] = []
    /// The client sent its FIN: a read past `inbound` is the end of input.
    var clientFinished = false
    var received: [UInt8] = []
    /// Bytes the client still takes before a send blocks.
    var room = Int.max
    private(set) var writeShut = false
    private(set) var watched = false
    private(set) var closed = false
    /// A read or send fails (a reset).
    var failing = false

    func read(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> IOResult<Int>? {
        if failing { return nil }
        guard !inbound.isEmpty else { return clientFinished ? .done(0) : .wouldBlock }
        let n = min(count, inbound.count)
        inbound.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: n) }
        inbound.removeFirst(n)
        return .done(n)
    }

    func send(_ bytes: UnsafeRawPointer, _ count: Int) -> IOResult<Int>? {
        if failing { return nil }
        guard room > 0 else { return .wouldBlock }
        let n = min(count, room)
        received.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: n))
        if room != .max { room -= n }
        return .done(n)
    }

    func shutdownWrite() { writeShut = true }

    func watch(_ connection: HTTPConnection) throws(SystemError) { watched = true }

    func close(_ connection: HTTPConnection, watched: Bool) {
        precondition(!closed, "a connection closed its socket twice")
        closed = true
    }
}

/// A monotonic clock a test moves by hand.
final class ManualSeconds: @unchecked Sendable {
    private let lock = Mutex(0.0)
    var now: Double { lock.withLock { $0 } }
    func advance(_ seconds: Double) { lock.withLock { $0 += seconds } }
}

/// One `HTTPConnection` on a `MemoryConnectionIO` and a hand-moved clock, driven as its event loop
/// would drive it: the client's bytes arrive, the socket becomes writable, the sweep checks the
/// deadline. Every step runs on the connection's queue and returns once what it queued has run,
/// so no test sleeps.
final class ConnectionHarness: @unchecked Sendable {
    let io = MemoryConnectionIO()
    let clock = ManualSeconds()
    private(set) var connection: HTTPConnection!
    private let closedFlag = Mutex(false)

    init(
        limits: HTTPLimits = HTTPLimits(), held: Int = 64 * 1024 * 1024, security: (any HTTPWireSecurity)? = nil,
        refusals: (@Sendable (HTTPRefusal) -> Void)? = nil, responder: any HTTPResponder
    ) {
        let clock = clock
        let closedFlag = closedFlag
        connection = HTTPConnection(
            id: 1, io: io, remoteAddress: "127.0.0.1:50000", responder: responder, limits: limits,
            errorRenderer: .plainText, security: security, refusalObserver: refusals, held: HeldBytes(limit: held),
            clock: { clock.now }, onClose: { _ in closedFlag.withLock { $0 = true } })
        let started = io.queue.sync { connection.start() }
        precondition(started == nil, "the memory socket was refused: \(started ?? "")")
    }

    /// Whether the connection closed (and told its server).
    var isClosed: Bool { closedFlag.withLock { $0 } }

    /// The client sends `text` (and its FIN when `finish`); the loop reports the socket readable.
    func clientSends(_ text: String, finish: Bool = false) {
        io.queue.sync {
            io.inbound += Array(text.utf8)
            if finish { io.clientFinished = true }
            connection.ready(readable: true, writable: false, peerClosed: finish)
        }
        settle()
    }

    /// The client reads `bytes` more (or all); the loop reports the socket writable.
    func clientReads(_ bytes: Int = .max) {
        io.queue.sync {
            io.room = bytes == .max ? .max : io.room + bytes
            connection.ready(readable: false, writable: true, peerClosed: false)
        }
        settle()
    }

    /// The server's sweep, `seconds` later.
    func sweep(after seconds: Double) {
        clock.advance(seconds)
        io.queue.sync { connection.checkDeadline(now: clock.now) }
        settle()
    }

    /// The server begins to stop.
    func shutdown() {
        io.queue.sync { connection.beginShutdown() }
        settle()
    }

    /// Lets what the connection posted to its own queue run (deferred reads, late answers).
    func settle() {
        for _ in 0..<4 { io.queue.sync {} }
    }

    /// What the client has received so far, as text, and forgets it.
    func take() -> String {
        io.queue.sync {
            defer { io.received = [] }
            return String(decoding: io.received, as: UTF8.self)
        }
    }

    var writeShut: Bool { io.queue.sync { io.writeShut } }
    var unreadInbound: Int { io.queue.sync { io.inbound.count } }
}

/// Answers each request with its target, at once.
struct EchoTarget: HTTPResponder {
    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        writer.send(HTTPResponse(body: Array(request.target.utf8)))
    }
}

/// Keeps every writer, for the test to answer when it says, in any order.
final class HeldAnswers: HTTPResponder, @unchecked Sendable {
    private let writers = Mutex<[(String, HTTPResponseWriter)]>([])

    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        writers.withLock { $0.append((request.target, writer)) }
    }

    var targets: [String] { writers.withLock { $0.map(\.0) } }

    /// Answers the request for `target` with its target as the body.
    func answer(_ target: String) {
        let writer = writers.withLock { w in w.first { $0.0 == target }?.1 }
        writer?.send(HTTPResponse(body: Array(target.utf8)))
    }
}
