/// The policy of one connection, apart from its socket: which request may be taken next, whether
/// to read, when to answer with keep-alive or close, when a deadline has passed, what a shutdown
/// does. Events come in (bytes read, a request parsed, its answer ready, output sent or blocked,
/// the peer gone, a tick of the clock, the server stopping) with the time passed in; the actions
/// to carry out come back. `HTTPConnection` owns the descriptor, buffers, parser and wire layer and
/// only does what this says, so every rule here is tested with bytes of state and a number for a
/// clock, no sockets and no sleeps (Hummingbird's `HTTPConnectionStateHandler` and NIO's
/// `HTTPServerPipelineHandler` keep the same split).
struct HTTPConnectionStateMachine: Sendable, Equatable {
    /// Where the connection is in its life.
    enum Lifecycle: Sendable, Equatable {
        /// Serving requests, one at a time.
        case open
        /// A last answer is queued (an error, `Connection: close`, a finished stream): once it is
        /// sent, writing is shut down.
        case closingAfterFlush
        /// Our side is shut: input is read and dropped until the client closes, so that the last
        /// answer is not destroyed by a reset for unread bytes.
        case draining
        case closed
    }

    /// The request the responder owns: at most one at a time, answered in order.
    struct InFlight: Sendable, Equatable {
        let sequence: Int
        let isHead: Bool
        let keepAlive: Bool
        /// An HTTP/1.0 request: a kept connection must say so in its answer.
        var announcesKeepAlive = false
    }

    /// What the client's side of the socket has said.
    enum Input: Sendable, Equatable {
        /// Open, as far as we know.
        case open
        /// The poller reported a hang-up: read on to the end of input even after a short read,
        /// since no further event will come for it.
        case hungUp
        /// The end of input has been read.
        case ended
    }

    /// What the parser holds, for the deadline in force.
    struct ParserFacts: Sendable, Equatable {
        var isReadingBody = false
        var bufferedBytes = 0
    }

    /// Output piled up (a client pipelining without reading) before no further request is taken:
    /// `HTTPLimits.maxPendingOutputBytes`, 1 MiB unless configured.
    static let maxPendingOutput = 1024 * 1024
    let pendingOutputLimit: Int

    private(set) var lifecycle: Lifecycle = .open
    private(set) var inFlight: InFlight?
    private(set) var streaming = false
    private(set) var input: Input = .open
    /// The server is stopping: answers close their connection.
    private(set) var shuttingDown = false
    /// On an HTTPS port until the first request's head is read: the handshake counts against the
    /// header deadline from accept, so a stalled or trickled handshake is closed like a slowloris.
    private(set) var awaitingFirstRequest: Bool
    /// Reading is paused (a request in flight, output backed up, the end of input).
    private(set) var readPaused = false
    /// The socket became readable while reading was paused: the poller reports edges, so that
    /// data is read when reading resumes, not on a later event that may never come.
    private(set) var readableWhilePaused = false
    /// Output waits for room in the socket: the next writable event sends it.
    private(set) var waitingForWritable = false
    private(set) var timeouts: ConnectionTimeouts
    private var sequence = 0

    init(
        limits: HTTPLimits.Timeouts, now: Double, handshakeFirst: Bool,
        maxPendingOutput: Int = HTTPConnectionStateMachine.maxPendingOutput
    ) {
        pendingOutputLimit = max(1, maxPendingOutput)
        timeouts = ConnectionTimeouts(limits: limits, now: now)
        awaitingFirstRequest = handshakeFirst
        if handshakeFirst { timeouts.enter(.readingHead, at: now) }
    }

    var isClosed: Bool { lifecycle == .closed }

    /// Still sending answers: open, or with a last answer queued.
    private var isSending: Bool { lifecycle == .open || lifecycle == .closingAfterFlush }

    // MARK: - Readiness

    /// What to do with a readable socket.
    enum ReadAction: Sendable, Equatable {
        /// Nothing: closed, or reading is paused (the edge is remembered for when it resumes).
        case none
        /// Read requests. `shortReadDrains`: a short read (fewer bytes than asked) means the socket
        /// is drained; not after a hang-up, whose end of input no event will report again.
        case read(shortReadDrains: Bool)
        /// Read and drop: the connection is draining, or streaming to a client that has nothing
        /// more to say (reading only tells when it leaves).
        case discard
    }

    /// The poller reported that the peer closed (or the socket failed).
    mutating func peerHungUp() {
        if input == .open { input = .hungUp }
    }

    /// The poller reported the socket readable (after any writable event was handled).
    /// `overBudget`: the server holds more output for slow readers than it allows, all connections
    /// together, and this connection's client owes some of it (`HeldBytes`).
    mutating func socketReadable(pendingOutput: Int, overBudget: Bool = false) -> ReadAction {
        if readPaused {
            readableWhilePaused = true
            return .none
        }
        return readAction(pendingOutput: pendingOutput, overBudget: overBudget)
    }

    /// Whether to read now, drop input, or pause (remembering the edge).
    mutating func readAction(pendingOutput: Int, overBudget: Bool = false) -> ReadAction {
        switch lifecycle {
        case .closed: return .none
        case .draining: return .discard
        case .open, .closingAfterFlush: break
        }
        if streaming { return .discard }
        if inFlight != nil || pendingOutput >= pendingOutputLimit || (overBudget && pendingOutput > 0) {
            readPaused = true
            readableWhilePaused = true
            return .none
        }
        return .read(shortReadDrains: input != .hungUp)
    }

    /// Reading stopped with input still in the socket (the parser holds as much as it may read
    /// ahead): the poller will not report it again, so it is read when reading resumes.
    mutating func inputLeftUnread() {
        readPaused = true
        readableWhilePaused = true
    }

    /// The end of input was read.
    mutating func inputEnded() {
        input = .ended
        readPaused = true
    }

    /// What to do once what was read has been served.
    enum InputHandledAction: Sendable, Equatable {
        case none
        /// The client has left and nothing is owed to it.
        case close
    }

    /// After reading and serving.
    func inputHandled(pendingOutput: Int) -> InputHandledAction {
        input == .ended && inFlight == nil && pendingOutput == 0 && isSending ? .close : .none
    }

    // MARK: - Requests

    /// Whether the next buffered request may be taken: one at a time, none while a stream runs or
    /// a last answer is queued, none while the client is not reading its answers.
    func mayTakeRequest(pendingOutput: Int) -> Bool {
        lifecycle == .open && inFlight == nil && !streaming && pendingOutput < pendingOutputLimit
    }

    /// What a round of taking requests does next.
    enum RequestGate: Sendable, Equatable {
        /// Parse and dispatch the next buffered request, if there is one.
        case take
        /// End the round. `anotherRound`: start one at once if the socket takes the round's
        /// answers (no event would come for requests already buffered).
        case stop(anotherRound: Bool)
    }

    /// Before each request of a round: `mayTakeRequest`, then `roundOverBudget`.
    func nextRequest(pendingOutput: Int, unsent: Int, overBudget: @autoclosure () -> Bool) -> RequestGate {
        guard mayTakeRequest(pendingOutput: pendingOutput) else {
            return .stop(anotherRound: pendingOutput >= pendingOutputLimit)
        }
        if roundOverBudget(pendingOutput: pendingOutput, unsent: unsent, overBudget: overBudget()) {
            return .stop(anotherRound: true)
        }
        return .take
    }

    /// What one round of requests may gather while the server is over its total for slow readers.
    static let budgetRoundBytes = 64 * 1024

    /// Whether a round of taking requests stops early because the server holds too much for slow
    /// readers (`overBudget`, asked only when it matters, so a client that reads costs no atomic):
    /// the client left output unsent at the last send (`unsent`), or this round gathered
    /// `budgetRoundBytes`. The next round comes once the socket took the round's answers.
    func roundOverBudget(pendingOutput: Int, unsent: Int, overBudget: @autoclosure () -> Bool) -> Bool {
        (unsent > 0 || pendingOutput >= Self.budgetRoundBytes) && overBudget()
    }

    /// A request was parsed and goes to the responder: its place in line.
    mutating func requestParsed(isHead: Bool, keepAlive: Bool, announcesKeepAlive: Bool = false, now: Double)
        -> InFlight
    {
        awaitingFirstRequest = false
        sequence += 1
        let request = InFlight(
            sequence: sequence, isHead: isHead, keepAlive: keepAlive && !shuttingDown,
            announcesKeepAlive: announcesKeepAlive)
        inFlight = request
        timeouts.enter(.responding, at: now)
        return request
    }

    /// A last answer was queued (a malformed request, a timeout, a refusal): close once it is sent.
    mutating func finalResponseQueued() {
        if lifecycle == .open { lifecycle = .closingAfterFlush }
    }

    /// How a response from the responder ended.
    enum ResponseKind: Sendable, Equatable { case complete, stream, drop }

    /// What to do with an answer that arrived.
    enum ResponseAction: Sendable, Equatable {
        /// Stale (not the request in flight) or the connection is gone.
        case ignore
        /// Write it, with or without its body (HEAD), keeping the connection or closing it after.
        /// `announceKeepAlive`: an HTTP/1.0 exchange whose connection stays open, which its answer
        /// must say (`Connection: keep-alive`), or the client waits for a close.
        case write(includeBody: Bool, keepAlive: Bool, announceKeepAlive: Bool = false)
        /// Write the stream's head and attach the stream.
        case startStream
        /// Close without a word (an injected fault).
        case close
    }

    mutating func responseArrived(sequence: Int, kind: ResponseKind) -> ResponseAction {
        guard isSending, let request = inFlight, request.sequence == sequence else { return .ignore }
        inFlight = nil
        switch kind {
        case .complete:
            let keepAlive = request.keepAlive && !shuttingDown
            if !keepAlive { lifecycle = .closingAfterFlush }
            return .write(
                includeBody: !request.isHead, keepAlive: keepAlive,
                announceKeepAlive: keepAlive && request.announcesKeepAlive)
        case .stream:
            streaming = true
            return .startStream
        case .drop:
            return .close
        }
    }

    /// What to do with a stream's chunk, or its end.
    enum StreamAction: Sendable, Equatable {
        /// The connection is gone or the stream is over: nothing.
        case ignore
        /// Queue it (a chunk) and send what is queued.
        case flush
    }

    /// The streamed answer is complete: close once it is sent.
    mutating func streamEnded() -> StreamAction {
        guard isSending, streaming else { return .ignore }
        lifecycle = .closingAfterFlush
        return .flush
    }

    /// A chunk of the stream came.
    func streamChunkArrived() -> StreamAction { isSending && streaming ? .flush : .ignore }

    // MARK: - Writing

    /// What to do once every queued byte is sent.
    enum FlushAction: Sendable, Equatable {
        case none
        /// Shut down writing (a FIN) and read to the end of input, dropping it.
        case shutDownWriting
    }

    mutating func outputSent(now: Double) -> FlushAction {
        waitingForWritable = false
        guard lifecycle == .closingAfterFlush else { return .none }
        lifecycle = .draining
        timeouts.enter(.draining, at: now)
        return .shutDownWriting
    }

    /// The socket is full: wait for room, under the write deadline.
    mutating func outputBlocked(now: Double) {
        waitingForWritable = true
        timeouts.enter(.writing, at: now)
    }

    /// What a writable socket calls for.
    enum WritableAction: Sendable, Equatable {
        /// Nothing waits for room.
        case none
        /// Send what waits.
        case flush
    }

    /// The poller reported the socket writable.
    func socketWritable() -> WritableAction { waitingForWritable ? .flush : .none }

    /// What follows a flush on a writable event.
    enum AfterWriteAction: Sendable, Equatable {
        case none
        /// Everything is sent: take the requests that waited for the client to read.
        case takeRequests
    }

    /// After a writable event's flush.
    func writableFlushed(pendingOutput: Int) -> AfterWriteAction {
        pendingOutput == 0 && isSending ? .takeRequests : .none
    }

    // MARK: - Flow control and deadlines

    /// What to do about reading after requests were taken and answers written.
    enum ReadInterest: Sendable, Equatable {
        case unchanged
        case pause
        /// Resume; `readNow` when an edge came while paused (read on a later turn of the queue,
        /// never inside the caller).
        case resume(readNow: Bool)
    }

    /// After serving: the deadline in force, and whether to read.
    mutating func settle(pendingOutput: Int, parser: ParserFacts, now: Double, overBudget: Bool = false)
        -> ReadInterest
    {
        enterPhase(pendingOutput: pendingOutput, parser: parser, now: now)
        return updateReadInterest(pendingOutput: pendingOutput, overBudget: overBudget)
    }

    private mutating func enterPhase(pendingOutput: Int, parser: ParserFacts, now: Double) {
        guard isSending else { return }
        if inFlight != nil || streaming {
            timeouts.enter(.responding, at: now)
        } else if awaitingFirstRequest {
            timeouts.enter(.readingHead, at: now)
        } else if pendingOutput > 0 {
            timeouts.enter(.writing, at: now)
        } else if parser.isReadingBody {
            timeouts.enter(.readingBody, at: now)
        } else if parser.bufferedBytes > 0 {
            timeouts.enter(.readingHead, at: now)
        } else {
            timeouts.enter(.idle, at: now)
        }
    }

    /// The one answer to "may we read?": not closed, the client not done, no request in flight,
    /// and either a stream (reading tells when the client leaves) or room for more answers.
    var wantsToRead: Bool {
        lifecycle != .closed && input != .ended && inFlight == nil
            && (streaming || lifecycle == .open)
    }

    private mutating func updateReadInterest(pendingOutput: Int, overBudget: Bool) -> ReadInterest {
        let wanted =
            wantsToRead
            && (streaming || (pendingOutput < pendingOutputLimit && !(overBudget && pendingOutput > 0)))
        if wanted && readPaused { return resumeReading() }
        if !wanted && lifecycle != .draining && lifecycle != .closed {
            readPaused = true
            return .pause
        }
        return .unchanged
    }

    /// Resumes reading; whether an edge came meanwhile.
    mutating func resumeReading() -> ReadInterest {
        guard readPaused else { return .unchanged }
        readPaused = false
        let readNow = readableWhilePaused
        readableWhilePaused = false
        return .resume(readNow: readNow)
    }

    /// The deferred read of a resume runs: read, unless reading was paused again meanwhile.
    mutating func deferredReadArrived() -> Bool {
        if readPaused {
            readableWhilePaused = true
            return false
        }
        return true
    }

    /// What a passed deadline calls for.
    enum DeadlineAction: Sendable, Equatable {
        case close
        /// Answer `408 Request Timeout`, then close.
        case requestTimeout
    }

    /// The server's sweep, about once a second. `handshakeDone` is false on an HTTPS connection
    /// whose handshake has not finished: nothing can be said to it.
    mutating func tick(now: Double, handshakeDone: Bool) -> DeadlineAction? {
        guard lifecycle != .closed, let action = timeouts.action(at: now) else { return nil }
        switch action {
        case .close:
            return .close
        case .requestTimeout:
            guard inFlight == nil else { return nil }
            guard handshakeDone else { return .close }
            finalResponseQueued()
            return .requestTimeout
        }
    }

    /// What a shutdown does to this connection.
    enum ShutdownAction: Sendable, Equatable {
        /// Close now: idle, or a stream (which has no end to wait for).
        case close
        /// Close after the current answer, which no longer keeps the connection (or already
        /// closing).
        case afterAnswer
    }

    /// The server is stopping.
    mutating func shutdownRequested(pendingOutput: Int, parser: ParserFacts) -> ShutdownAction {
        guard isSending else { return .afterAnswer }
        shuttingDown = true
        return streaming || (inFlight == nil && pendingOutput == 0 && parser.bufferedBytes == 0)
            ? .close : .afterAnswer
    }

    /// The connection closes: true the first time (do the closing), false after.
    mutating func closed() -> Bool {
        guard lifecycle != .closed else { return false }
        lifecycle = .closed
        inFlight = nil
        streaming = false
        readPaused = false
        waitingForWritable = false
        return true
    }
}
