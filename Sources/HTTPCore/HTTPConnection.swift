import Dispatch
import SystemPOSIX

/// One accepted socket: carries out what its `HTTPConnectionStateMachine` decides. It owns the
/// socket's I/O (`ConnectionIO`: a descriptor on an event loop, or a test's in-memory twin), the
/// read and write buffers, the parser and the wire layer (`ConnectionWire`: plain, or TLS
/// underneath); every policy (which request next, keep-alive or close, pause or resume reading,
/// deadlines, shutdown) is the machine's. Time comes from `clock`, so tests set it.
///
/// Every mutable field is touched only on `queue`, its event loop's serial queue; that confinement
/// is what `@unchecked Sendable` stands for here. The loop's poller reports the socket ready
/// (edge-triggered): reading goes on until the socket is drained.
final class HTTPConnection: @unchecked Sendable {
    let id: Int
    let queue: DispatchQueue
    /// Whether a byte ever came: read from the accept path (hence atomic), which evicts silent
    /// connections first when the server is full.
    let hasSpoken = Atomic<Bool>(false)
    /// When the connection was accepted (`now()` seconds).
    let acceptedAt: Double
    private let io: any ConnectionIO
    /// Seconds on a monotonic clock (`HTTPConnection.now` in the server).
    private let clock: @Sendable () -> Double
    private let remoteAddress: String
    private let responder: any HTTPResponder
    private let errorRenderer: HTTPErrorRenderer
    private let refusalObserver: (@Sendable (HTTPRefusal) -> Void)?
    private let onClose: @Sendable (HTTPConnection) -> Void
    /// What the server's connections hold for slow readers, together; `accountedOutput` is this
    /// connection's share of it.
    private let held: HeldBytes
    private var accountedOutput = 0
    /// Requests read ahead of serving them, at most (`HTTPLimits.maxReadAheadBytes`).
    private let readAheadLimit: Int

    private var machine: HTTPConnectionStateMachine
    private var parser: HTTPRequestParser
    private var wire: ConnectionWire
    /// HTTP bytes to send, from `outboundOffset` (on an HTTPS port, sealed into `wire` on flush).
    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    /// Taking requests now: an answer that comes inline does not start another round.
    private var processing = false
    /// A streamed answer in progress: no further request is served; the connection closes after it.
    private var stream: HTTPStream?
    /// The last exchange's slot, when nothing else holds it (see `ResponseSlot`).
    private var spareSlot: ResponseSlot?

    private static let readChunk = 16 * 1024

    init(
        id: Int, io: any ConnectionIO, remoteAddress: String, responder: any HTTPResponder, limits: HTTPLimits,
        errorRenderer: HTTPErrorRenderer, security: (any HTTPWireSecurity)? = nil,
        refusalObserver: (@Sendable (HTTPRefusal) -> Void)? = nil, held: HeldBytes,
        clock: @escaping @Sendable () -> Double = HTTPConnection.now,
        onClose: @escaping @Sendable (HTTPConnection) -> Void
    ) {
        let now = clock()
        self.held = held
        readAheadLimit = limits.maxReadAheadBytes
        self.refusalObserver = refusalObserver
        acceptedAt = now
        self.id = id
        self.io = io
        self.clock = clock
        self.remoteAddress = remoteAddress
        self.responder = responder
        self.errorRenderer = errorRenderer
        self.onClose = onClose
        queue = io.queue
        parser = HTTPRequestParser(limits: limits)
        wire = ConnectionWire(security: security)
        machine = HTTPConnectionStateMachine(
            limits: limits.timeouts, now: now, handshakeFirst: security != nil,
            maxPendingOutput: limits.maxPendingOutputBytes)
    }

    /// Registers with the loop's poller (`io.watch`), which reports the socket at once if a request
    /// is already waiting. Called once on `queue`, right after accept. When the poller refuses the socket,
    /// the connection is closed and the refusal returned, with its cause, for the server to count.
    func start() -> String? {
        if wire.sessionUnavailable {
            _ = machine.closed()
            io.close(self, watched: false)
            onClose(self)
            return "the TLS session could not be created (the connection was closed, not served as plain HTTP)"
        }
        do {
            try io.watch(self)
            return nil
        } catch {
            _ = machine.closed()
            io.close(self, watched: false)
            onClose(self)
            return error.description
        }
    }

    /// From the loop: the socket became readable and/or writable.
    func ready(readable: Bool, writable: Bool, peerClosed: Bool) {
        if peerClosed { machine.peerHungUp() }
        if writable && machine.socketWritable() == .flush { self.writable() }
        if readable { perform(machine.socketReadable(pendingOutput: pendingOutputCount, overBudget: overBudget)) }
    }

    private func perform(_ action: HTTPConnectionStateMachine.ReadAction) {
        switch action {
        case .none: return
        case .discard: drainInput()
        case .read(let shortReadDrains): readRequests(shortReadDrains: shortReadDrains)
        }
    }

    // MARK: - Reading

    private enum ReadResult { case data, endOfFile, failed, notThisProtocol }

    private func readRequests(shortReadDrains: Bool) {
        var leftUnread = false
        let result = withUnsafeTemporaryAllocation(byteCount: Self.readChunk, alignment: 1) { buffer -> ReadResult in
            guard let base = buffer.baseAddress else { return .data }
            while true {
                // As much as one request may take is read ahead, no more: the rest waits in the
                // socket (and its sender) until these are served.
                if parser.bufferedByteCount >= readAheadLimit {
                    leftUnread = true
                    return .data
                }
                switch io.read(base, Self.readChunk) {
                case .done(0): return .endOfFile
                case .done(let count):
                    if count > 0 && !hasSpoken.load(ordering: .relaxed) { hasSpoken.store(true, ordering: .relaxed) }
                    switch wire.receive(UnsafeRawBufferPointer(start: base, count: count), into: &parser) {
                    case .ok: break
                    case .closed: return .endOfFile
                    case .notThisProtocol: return .notThisProtocol
                    case .failed: return .failed
                    }
                    if count < Self.readChunk && shortReadDrains { return .data }
                case .wouldBlock: return .data
                case nil: return .failed
                }
            }
        }
        switch result {
        case .failed:
            // A refused handshake says why (its alert), best effort, before the close.
            wire.collectFailureOutput()
            let io = io
            wire.withSealed { sealed, offset in _ = Self.send(io, &sealed, &offset) }
            close()
            return
        case .notThisProtocol:
            refusePlaintext()
            return
        case .endOfFile:
            machine.inputEnded()
        case .data:
            if leftUnread { machine.inputLeftUnread() }
        }
        let buffered = parser.bufferedByteCount
        if buffered > Self.readChunk { held.noteReadAhead(buffered) }
        processRequests()
        if result == .endOfFile, parser.bufferedByteCount > 0 || parser.isReadingBody, !machine.isClosed {
            // The client left in the middle of a request: nobody is answered, but the request
            // that did not make it is told, as one the server refused is.
            reportAbandoned()
        }
        if machine.inputHandled(pendingOutput: pendingOutputCount) == .close { close() }
    }

    /// Plain HTTP (or garbage) on the HTTPS port: a plaintext 400 saying so, then close.
    private func refusePlaintext() {
        wire.queueRaw(errorRenderer.response(.badRequest, reason: wire.plaintextRefusal))
        machine.finalResponseQueued()
        sendWire()
    }

    // MARK: - Requests

    /// Hands buffered requests to the responder one at a time while answers come inline, then
    /// writes every answer gathered in one go. A round stops at the connection's output limit, or
    /// early while the server holds too much for slow readers (`roundOverBudget`); when
    /// the socket took all of it, the next round starts at once (no event would come for requests
    /// already buffered), else when the client has read it.
    private func processRequests() {
        guard !processing else { return }
        processing = true
        defer { processing = false }

        var anotherRound = true
        while anotherRound {
            anotherRound = false
            while true {
                if case .stop(let again) = machine.nextRequest(
                    pendingOutput: pendingOutputCount, unsent: accountedOutput, overBudget: held.isOverLimit)
                {
                    anotherRound = again
                    break
                }
                let request: HTTPRequest
                do {
                    guard let next = try parser.next() else {
                        if parser.takeContinueRequest() {
                            outbound.append(contentsOf: "HTTP/1.1 100 Continue\r\n\r\n".utf8)
                        }
                        break
                    }
                    request = next
                } catch {
                    report(error.status, error.reason)
                    queueFinalResponse(errorRenderer.response(error.status, reason: error.reason))
                    break
                }
                dispatch(request)
            }
            flush()
            anotherRound = anotherRound && !machine.isClosed && pendingOutputCount == 0
        }
        settle()
    }

    private func dispatch(_ incoming: HTTPRequest) {
        var request = incoming
        request.remoteAddress = remoteAddress
        request.tlsVersion = wire.protocolVersion
        let mine = machine.requestParsed(
            isHead: request.method == .head, keepAlive: request.keepAlive,
            announcesKeepAlive: request.version == .http10, now: clock()
        ).sequence
        var spare: ResponseSlot?
        swap(&spare, &spareSlot)
        var slot =
            spare
            ?? ResponseSlot { [weak self] sequence, outcome in
                guard let self else { return }
                self.queue.async { self.complete(sequence, outcome) }
            }
        spare = nil
        slot.begin(sequence: mine)
        responder.respond(to: request, writer: slot.writer)
        guard let outcome = slot.takeInlineOutcome() else { return }
        // No writer of this exchange is left anywhere: the next request may use the slot.
        if isKnownUniquelyReferenced(&slot) { spareSlot = slot }
        complete(mine, outcome)
    }

    private func complete(_ sequence: Int, _ outcome: HTTPResponseWriter.Outcome) {
        let kind: HTTPConnectionStateMachine.ResponseKind
        switch outcome {
        case .response: kind = .complete
        case .stream: kind = .stream
        case .dropConnection: kind = .drop
        }
        switch machine.responseArrived(sequence: sequence, kind: kind) {
        case .ignore:
            return
        case .write(let includeBody, let keepAlive, let announceKeepAlive):
            if case .response(let response) = outcome {
                response.serialize(
                    into: &outbound, includeBody: includeBody, closeConnection: !keepAlive,
                    announceKeepAlive: announceKeepAlive)
            }
        case .startStream:
            guard case .stream(let head, let newStream) = outcome else { return }
            head.serializeStreamHead(into: &outbound)
            stream = newStream
            flush()
            settle()
            newStream.attach(self)
            return
        case .close:
            close()
            return
        }
        if !processing { processRequests() }
    }

    // MARK: - Streamed answers

    /// From any thread: queue `bytes` of the streamed answer.
    func streamWrite(_ bytes: [UInt8]) {
        queue.async { [self] in
            guard machine.streamChunkArrived() == .flush, let stream else { return }
            let before = pendingOutputCount
            // A stream already behind while the server holds too much for slow readers: closed
            // (a console resumes with Last-Event-ID) rather than held.
            if overBudget {
                stream.sent(bytes.count)
                close()
                return
            }
            // Nothing waiting: send from the caller's buffer itself instead of copying it.
            if outbound.isEmpty { outbound = bytes } else { outbound.append(contentsOf: bytes) }
            flush()
            stream.sent(before + bytes.count - pendingOutputCount)
        }
    }

    /// From any thread: the streamed answer is complete; close once it is sent.
    func streamEnd() {
        queue.async { [self] in
            if machine.streamEnded() == .flush { flush() }
        }
    }

    /// Queues a last answer (an error or a timeout) and closes once it is written.
    private func queueFinalResponse(_ response: HTTPResponse) {
        response.serialize(into: &outbound, includeBody: true, closeConnection: true)
        machine.finalResponseQueued()
    }

    // MARK: - Writing

    private var pendingOutputCount: Int { outbound.count - outboundOffset + wire.pendingCount }

    /// Whether this connection's client left output unsent (the socket was full at the last send)
    /// while the server, all connections together, holds more than it allows for slow readers.
    /// Answers gathered and not yet sent do not count: they go out at the end of the round, and a
    /// client that reads them gets the next ones.
    private var overBudget: Bool { accountedOutput > 0 && held.isOverLimit }

    /// Brings this connection's share of `held` up to date: nothing to do, and no atomic, when it
    /// owed nothing and still owes nothing (a client that reads).
    private func accountOutput() {
        let pending = machine.isClosed ? 0 : pendingOutputCount
        guard pending != accountedOutput else { return }
        held.addOutput(pending - accountedOutput)
        accountedOutput = pending
    }

    private func flush() {
        guard !machine.isClosed else { return }
        guard wire.seal(&outbound, &outboundOffset) else {
            close()
            return
        }
        if wire.isPlain {
            sent(Self.send(io, &outbound, &outboundOffset))
        } else {
            sendWire()
        }
    }

    /// Sends what the wire layer holds for the socket.
    private func sendWire() {
        var result = SendResult.sent
        let io = io
        wire.withSealed { result = Self.send(io, &$0, &$1) }
        sent(result)
    }

    private enum SendResult { case sent, blocked, failed }

    /// Sends `buffer` from `offset` as far as the socket takes it: all of it (then the buffer is
    /// emptied), or up to EAGAIN (then the next writable event from the loop sends the rest).
    private static func send(_ io: any ConnectionIO, _ buffer: inout [UInt8], _ offset: inout Int) -> SendResult {
        while offset < buffer.count {
            let start = offset
            let result = buffer.withUnsafeBytes { bytes in
                io.send(bytes.baseAddress! + start, bytes.count - start)
            }
            switch result {
            case .done(let written): offset += written
            case .wouldBlock: return .blocked
            case nil: return .failed
            }
        }
        buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
        offset = 0
        return .sent
    }

    /// Tells the machine how a send went and does what it says.
    private func sent(_ result: SendResult) {
        defer { accountOutput() }
        switch result {
        case .blocked:
            machine.outputBlocked(now: clock())
        case .failed:
            close()
        case .sent:
            if machine.outputSent(now: clock()) == .shutDownWriting { shutDownWriting() }
        }
    }

    private func writable() {
        guard !machine.isClosed else { return }
        let before = pendingOutputCount
        flush()
        stream?.sent(before - pendingOutputCount)
        if machine.writableFlushed(pendingOutput: pendingOutputCount) == .takeRequests { processRequests() }
    }

    // MARK: - Flow control and deadlines

    /// The deadline in force and the read interest, as the machine sees them after serving.
    private func settle() {
        let facts = HTTPConnectionStateMachine.ParserFacts(
            isReadingBody: parser.isReadingBody, bufferedBytes: parser.bufferedByteCount)
        apply(machine.settle(pendingOutput: pendingOutputCount, parser: facts, now: clock(), overBudget: overBudget))
    }

    /// Reads what arrived while paused on a later turn of the queue, never inside the caller:
    /// the poller reports edges, so that data would not be reported again.
    private func apply(_ interest: HTTPConnectionStateMachine.ReadInterest) {
        guard case .resume(readNow: true) = interest else { return }
        queue.async { [self] in
            if machine.deferredReadArrived() {
                perform(machine.readAction(pendingOutput: pendingOutputCount, overBudget: overBudget))
            }
        }
    }

    /// Called about once a second by the server's sweep.
    func checkDeadline(now: Double) {
        switch machine.tick(now: now, handshakeDone: wire.canAnswer) {
        case nil:
            return
        case .close?:
            close()
        case .requestTimeout?:
            report(.requestTimeout, "request not received in time")
            errorRenderer.response(.requestTimeout, reason: "request not received in time")
                .serialize(into: &outbound, includeBody: true, closeConnection: true)
            flush()
        }
    }

    /// Tells the observer of a request the client abandoned, when its request line was read.
    private func reportAbandoned() {
        guard let refusalObserver, let partial = parser.partialRequest() else { return }
        let reason =
            parser.isReadingBody
            ? "the client closed the connection before its body was complete"
            : "the client closed the connection before its head was complete"
        var refusal = HTTPRefusal(
            status: HTTPStatus(code: 0, reason: "No Answer"), reason: reason, method: partial.method,
            target: partial.target, headers: partial.headers, remoteAddress: remoteAddress,
            tlsVersion: wire.protocolVersion)
        refusal.clientLeft = true
        refusalObserver(refusal)
    }

    /// Tells the observer of an answer the server gives on its own, when the request line was read.
    private func report(_ status: HTTPStatus, _ reason: String) {
        guard let refusalObserver, let partial = parser.partialRequest() else { return }
        refusalObserver(
            HTTPRefusal(
                status: status, reason: reason, method: partial.method, target: partial.target,
                headers: partial.headers, remoteAddress: remoteAddress, tlsVersion: wire.protocolVersion))
    }

    /// The server is stopping: idle connections close now, busy ones after their current answer.
    func beginShutdown() {
        let facts = HTTPConnectionStateMachine.ParserFacts(
            isReadingBody: parser.isReadingBody, bufferedBytes: parser.bufferedByteCount)
        if machine.shutdownRequested(pendingOutput: pendingOutputCount, parser: facts) == .close { close() }
    }

    // MARK: - Closing

    /// The last answer is sent: say goodbye on the wire (TLS close_notify, best effort), shut our
    /// side, then read and drop until the client closes (or two seconds pass), so that the answer
    /// is not destroyed by a reset for unread bytes.
    private func shutDownWriting() {
        wire.close()
        let io = io
        wire.withSealed { sealed, offset in _ = Self.send(io, &sealed, &offset) }
        io.shutdownWrite()
        apply(machine.resumeReading())
    }

    private func drainInput() {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            switch scratch.withUnsafeMutableBytes({ io.read($0.baseAddress!, $0.count) }) {
            case .done(let count) where count > 0: continue
            case .wouldBlock: return
            case .done, nil:
                close()
                return
            }
        }
    }

    func close() {
        guard machine.closed() else { return }
        accountOutput()
        if let stream {
            self.stream = nil
            stream.connectionClosed()
        }
        io.close(self, watched: true)
        onClose(self)
    }

    @Sendable static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
