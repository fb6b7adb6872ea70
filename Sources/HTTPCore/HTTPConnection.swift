import Dispatch
import SystemPOSIX

/// One accepted socket: reads requests, hands them to the responder one at a time, and writes the
/// answers back in order.
///
/// Every mutable field is touched only on `queue`, its event loop's serial queue; that confinement
/// is what `@unchecked Sendable` stands for here. The loop's poller reports the socket ready
/// (edge-triggered): reading goes on until the socket is drained, and an event that comes while
/// reading is paused is remembered, so that resuming reads what arrived meanwhile.
final class HTTPConnection: @unchecked Sendable {
    let id: Int
    let queue: DispatchQueue
    private let fd: Int32
    private let remoteAddress: String
    private let responder: any HTTPResponder
    private let limits: HTTPLimits
    private let errorRenderer: HTTPErrorRenderer
    private let onClose: @Sendable (HTTPConnection) -> Void

    private var parser: HTTPRequestParser
    private var timeouts: ConnectionTimeouts
    private let loop: HTTPEventLoop
    private var readSuspended = false
    /// The socket became readable while reading was paused: read when it resumes.
    private var readableWhilePaused = false
    /// Output waits for room in the socket: a writable event sends it.
    private var writeActive = false
    /// The poller said the peer closed (or the socket failed): read on to the end of input even
    /// after a short read, since no further event will come for it.
    private var peerHungUp = false

    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    /// The request whose answer we wait for: its sequence number, whether it was HEAD, and keep-alive.
    private var pending: (sequence: Int, isHead: Bool, keepAlive: Bool)?
    private var sequence = 0
    private var processing = false
    private var peerClosedInput = false
    private var closeAfterFlush = false
    private var shuttingDown = false
    /// A streamed answer in progress: no further request is served; the connection closes after it.
    private var streaming: HTTPStream?
    private var state: State = .open

    /// TLS on an HTTPS port: `outbound` then holds plaintext, encrypted into `wire` on flush.
    private let wireSession: (any HTTPWireSession)?
    private let plaintextRefusal: String
    private var wire: [UInt8] = []
    private var wireOffset = 0
    private var decrypted: [UInt8] = []
    /// On an HTTPS port, until the first request's head is read: the handshake counts against the
    /// header timeout from accept, so a stalled or trickled handshake is closed like a slowloris.
    private var awaitingFirstRequest = false

    private enum State { case open, draining, closed }

    /// Output we let pile up (a client pipelining without reading) before we stop taking requests.
    private static let maxPendingOutput = 1024 * 1024
    private static let readChunk = 16 * 1024

    init(
        id: Int, fd: Int32, remoteAddress: String, responder: any HTTPResponder, limits: HTTPLimits,
        errorRenderer: HTTPErrorRenderer, security: (any HTTPWireSecurity)? = nil, loop: HTTPEventLoop, now: Double,
        onClose: @escaping @Sendable (HTTPConnection) -> Void
    ) {
        self.id = id
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.responder = responder
        self.limits = limits
        self.errorRenderer = errorRenderer
        self.onClose = onClose
        self.loop = loop
        queue = loop.queue
        parser = HTTPRequestParser(limits: limits)
        timeouts = ConnectionTimeouts(limits: limits.timeouts, now: now)
        wireSession = security?.makeSession()
        plaintextRefusal = security?.plaintextRefusal ?? ""
        if security != nil {
            awaitingFirstRequest = true
            timeouts.enter(.readingHead, at: now)
        }
    }

    /// Registers with the loop's poller, which reports the socket at once if a request is already
    /// waiting. Called once on `queue`, right after accept.
    func start() {
        guard loop.add(self, fd: fd) else {
            state = .closed
            System.close(fd)
            onClose(self)
            return
        }
    }

    /// From the loop: the socket became readable and/or writable.
    func ready(readable: Bool, writable: Bool, peerClosed: Bool) {
        if peerClosed { peerHungUp = true }
        if writable && writeActive { self.writable() }
        if readable {
            if readSuspended { readableWhilePaused = true } else { self.readable() }
        }
    }

    // MARK: - Reading

    private func readable() {
        switch state {
        case .closed:
            return
        case .draining:
            drainInput()
            return
        case .open:
            break
        }
        if streaming != nil {
            // A streaming client has nothing more to say; reading only tells us when it leaves.
            drainInput()
            return
        }
        if pending != nil || pendingOutputCount >= Self.maxPendingOutput {
            // Not read now: read when reading resumes (no new event would say it is there).
            suspendReading()
            readableWhilePaused = true
            return
        }
        let result = withUnsafeTemporaryAllocation(byteCount: Self.readChunk, alignment: 1) { buffer -> ReadResult in
            guard let base = buffer.baseAddress else { return .wouldBlock }
            while true {
                switch try? System.read(fd, base, Self.readChunk) {
                case .done(0): return .endOfFile
                case .done(let count):
                    let bytes = UnsafeRawBufferPointer(start: base, count: count)
                    if let wireSession {
                        switch wireSession.receive(bytes, into: &decrypted) {
                        case .ok: break
                        case .closed: return .endOfFile
                        case .notThisProtocol: return .notThisProtocol
                        case .failed: return .failed
                        }
                        parser.append(decrypted)
                        decrypted.removeAll(keepingCapacity: true)
                    } else {
                        parser.append(bytes)
                    }
                    if count < Self.readChunk && !peerHungUp { return .data }
                case .wouldBlock: return .data
                case nil: return .failed
                }
            }
        }
        switch result {
        case .failed:
            close()
            return
        case .notThisProtocol:
            refusePlaintext()
            return
        case .endOfFile:
            peerClosedInput = true
            suspendReading()
        case .data, .wouldBlock:
            break
        }
        processRequests()
        if peerClosedInput && pending == nil && pendingOutputCount == 0 && state == .open {
            close()
        }
    }

    private enum ReadResult { case data, endOfFile, wouldBlock, failed, notThisProtocol }

    /// Plain HTTP (or garbage) on the HTTPS port: a plaintext 400 saying so, then close.
    private func refusePlaintext() {
        errorRenderer.response(.badRequest, reason: plaintextRefusal)
            .serialize(into: &wire, includeBody: true, closeConnection: true)
        closeAfterFlush = true
        flushWire()
    }

    // MARK: - Requests

    /// Hands buffered requests to the responder one at a time while answers come inline, then
    /// writes every answer gathered in one go.
    private func processRequests() {
        guard !processing else { return }
        processing = true
        defer { processing = false }

        while state == .open && pending == nil && streaming == nil && !closeAfterFlush && pendingOutputCount < Self.maxPendingOutput {
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
                queueFinalResponse(errorRenderer.response(error.status, reason: error.reason))
                break
            }
            dispatch(request)
        }
        flush()
        updatePhase()
        updateReadInterest()
    }

    private func dispatch(_ incoming: HTTPRequest) {
        var request = incoming
        request.remoteAddress = remoteAddress
        request.tlsVersion = wireSession?.protocolVersion
        awaitingFirstRequest = false
        sequence += 1
        let mine = sequence
        pending = (mine, request.method == .head, request.keepAlive && !shuttingDown)
        timeouts.enter(.responding, at: Self.now())
        let slot = ResponseSlot { [self] outcome in
            self.queue.async { self.complete(mine, outcome) }
        }
        responder.respond(to: request, writer: slot.writer)
        if let outcome = slot.takeInlineOutcome() { complete(mine, outcome) }
    }

    private func complete(_ sequence: Int, _ outcome: HTTPResponseWriter.Outcome) {
        guard state == .open, let current = pending, current.sequence == sequence else { return }
        pending = nil
        switch outcome {
        case .response(let response):
            let keepAlive = current.keepAlive && !shuttingDown
            response.serialize(into: &outbound, includeBody: !current.isHead, closeConnection: !keepAlive)
            if !keepAlive { closeAfterFlush = true }
        case .stream(let head, let stream):
            head.serializeStreamHead(into: &outbound)
            streaming = stream
            flush()
            updatePhase()
            updateReadInterest()
            stream.attach(self)
            return
        case .dropConnection:
            close()
            return
        }
        if !processing { processRequests() }
    }

    // MARK: - Streamed answers

    /// From any thread: queue `bytes` of the streamed answer.
    func streamWrite(_ bytes: [UInt8]) {
        queue.async { [self] in
            guard state == .open, let stream = streaming else { return }
            let before = pendingOutputCount
            // Nothing waiting: send from the caller's buffer itself instead of copying it.
            if outbound.isEmpty { outbound = bytes } else { outbound.append(contentsOf: bytes) }
            flush()
            stream.sent(before + bytes.count - pendingOutputCount)
        }
    }

    /// From any thread: the streamed answer is complete; close once it is sent.
    func streamEnd() {
        queue.async { [self] in
            guard state == .open, streaming != nil else { return }
            closeAfterFlush = true
            flush()
        }
    }

    /// Queues a last answer (an error or a timeout) and closes once it is written.
    private func queueFinalResponse(_ response: HTTPResponse) {
        response.serialize(into: &outbound, includeBody: true, closeConnection: true)
        closeAfterFlush = true
    }

    // MARK: - Writing

    private var pendingOutputCount: Int { outbound.count - outboundOffset + wire.count - wireOffset }

    private func flush() {
        guard state != .closed else { return }
        if let wireSession {
            // The protocol's own bytes (the handshake) go before the data they make possible.
            wireSession.takeOutput(into: &wire)
            if outboundOffset < outbound.count {
                let sent = outbound.withUnsafeBytes { bytes in
                    wireSession.send(UnsafeRawBufferPointer(rebasing: bytes[outboundOffset...]), into: &wire)
                }
                outbound.removeAll(keepingCapacity: outbound.capacity <= 64 * 1024)
                outboundOffset = 0
                guard sent else {
                    close()
                    return
                }
            }
            wireSession.takeOutput(into: &wire)
            flushWire()
            return
        }
        send(&outbound, &outboundOffset)
    }

    /// Sends `wire` (TLS records, or a plaintext refusal) as far as the socket takes it.
    private func flushWire() {
        send(&wire, &wireOffset)
    }

    /// Sends `buffer` from `offset` as far as the socket takes it: all of it (then the buffer is
    /// emptied and a pending close begun), or up to EAGAIN (then the next writable event from the
    /// loop sends the rest).
    private func send(_ buffer: inout [UInt8], _ offset: inout Int) {
        while offset < buffer.count {
            let start = offset
            let result = buffer.withUnsafeBytes { bytes in
                try? System.send(fd, bytes.baseAddress! + start, bytes.count - start)
            }
            switch result {
            case .done(let written):
                offset += written
            case .wouldBlock:
                waitForRoom()
                return
            case nil:
                close()
                return
            }
        }
        buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
        offset = 0
        stopWaitingForRoom()
        if closeAfterFlush && state == .open { beginDrainingClose() }
    }

    private func writable() {
        guard state != .closed else { return }
        let before = pendingOutputCount
        flush()
        streaming?.sent(before - pendingOutputCount)
        if pendingOutputCount == 0 && state == .open { processRequests() }
    }

    /// The socket is full: the next writable event sends the rest.
    private func waitForRoom() {
        writeActive = true
        timeouts.enter(.writing, at: Self.now())
    }

    private func stopWaitingForRoom() {
        writeActive = false
    }

    // MARK: - Flow control and deadlines

    private func updateReadInterest() {
        let wanted = state != .closed && !peerClosedInput && pending == nil
            && (streaming != nil || (pendingOutputCount < Self.maxPendingOutput && !closeAfterFlush))
        if wanted && readSuspended {
            resumeReading()
        } else if !wanted && state == .open {
            suspendReading()
        }
    }

    private func suspendReading() {
        readSuspended = true
    }

    /// Reads what arrived while paused: the poller reports edges, so that data would not be
    /// reported again. Deferred to a later turn of the queue, never run inside the caller.
    private func resumeReading() {
        guard readSuspended else { return }
        readSuspended = false
        if readableWhilePaused {
            readableWhilePaused = false
            queue.async { [self] in
                if !readSuspended { readable() } else { readableWhilePaused = true }
            }
        }
    }

    private func updatePhase() {
        guard state == .open else { return }
        let now = Self.now()
        if pending != nil || streaming != nil {
            timeouts.enter(.responding, at: now)
        } else if awaitingFirstRequest {
            timeouts.enter(.readingHead, at: now)
        } else if pendingOutputCount > 0 {
            timeouts.enter(.writing, at: now)
        } else if parser.isReadingBody {
            timeouts.enter(.readingBody, at: now)
        } else if parser.bufferedByteCount > 0 {
            timeouts.enter(.readingHead, at: now)
        } else {
            timeouts.enter(.idle, at: now)
        }
    }

    /// Called about once a second by the server's sweep.
    func checkDeadline(now: Double) {
        guard state != .closed, let action = timeouts.action(at: now) else { return }
        switch action {
        case .close:
            close()
        case .requestTimeout:
            guard pending == nil else { return }
            if let wireSession, wireSession.protocolVersion == nil {
                // A handshake that did not finish in time: nothing can be said to it.
                close()
                return
            }
            queueFinalResponse(errorRenderer.response(.requestTimeout, reason: "request not received in time"))
            flush()
        }
    }

    /// The server is stopping: idle connections close now, busy ones after their current answer.
    func beginShutdown() {
        guard state == .open else { return }
        shuttingDown = true
        if streaming != nil || (pending == nil && pendingOutputCount == 0 && parser.bufferedByteCount == 0) {
            close()
        }
    }

    // MARK: - Closing

    /// Shuts our side, then reads and discards until the client closes (or two seconds pass), so
    /// that our last answer is not destroyed by a reset for unread bytes.
    private func beginDrainingClose() {
        state = .draining
        System.shutdownWrite(fd)
        timeouts.enter(.draining, at: Self.now())
        resumeReading()
    }

    private func drainInput() {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            switch scratch.withUnsafeMutableBytes({ try? System.read(fd, $0.baseAddress!, $0.count) }) {
            case .done(let count) where count > 0: continue
            case .wouldBlock: return
            case .done, nil:
                close()
                return
            }
        }
    }

    func close() {
        guard state != .closed else { return }
        state = .closed
        pending = nil
        if let stream = streaming {
            streaming = nil
            stream.connectionClosed()
        }
        readSuspended = false
        writeActive = false
        loop.remove(self, fd: fd)
        System.close(fd)
        onClose(self)
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
