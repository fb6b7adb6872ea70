import Testing

@testable import HTTPCore

/// The connection's policy as events in and actions out, with a number for a clock: no sockets,
/// no sleeps. The socket suites (`HTTPServerSocketTests`, `RobustnessTests`) check the same rules
/// end to end.
@Suite("Connection state machine")
struct HTTPConnectionStateMachineTests {
    typealias Machine = HTTPConnectionStateMachine
    private let limits = HTTPLimits.Timeouts(header: 10, body: 30, idle: 30, write: 30)
    private let empty = Machine.ParserFacts()

    /// Compares outside `#expect`, which cannot hold a mutating call.
    private func check<Value: Equatable>(
        _ value: Value, _ expected: Value, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(value == expected, sourceLocation: sourceLocation)
    }

    private func machine(at now: Double = 0, tls: Bool = false) -> Machine {
        Machine(limits: limits, now: now, handshakeFirst: tls)
    }

    @Test func servesOneRequestAtATimeAndReadsWhatCameMeanwhile() {
        var m = machine()
        #expect(m.socketReadable(pendingOutput: 0) == .read(shortReadDrains: true))
        #expect(m.mayTakeRequest(pendingOutput: 0))
        let first = m.requestParsed(isHead: false, keepAlive: true, now: 1)
        #expect(first == .init(sequence: 1, isHead: false, keepAlive: true))
        #expect(!m.mayTakeRequest(pendingOutput: 0))
        #expect(m.settle(pendingOutput: 0, parser: empty, now: 1) == .pause)
        // A pipelined request arrives while the first is answered: remembered, not read.
        #expect(m.socketReadable(pendingOutput: 0) == .none)
        #expect(m.readableWhilePaused)
        check(m.responseArrived(sequence: 1, kind: .complete), .write(includeBody: true, keepAlive: true))
        #expect(m.outputSent(now: 2) == .none)
        check(m.settle(pendingOutput: 0, parser: empty, now: 2), .resume(readNow: true))
        check(m.deferredReadArrived(), true)
        #expect(m.readAction(pendingOutput: 0) == .read(shortReadDrains: true))
        #expect(m.requestParsed(isHead: true, keepAlive: true, now: 3).sequence == 2)
        check(m.responseArrived(sequence: 2, kind: .complete), .write(includeBody: false, keepAlive: true))
    }

    /// Issue 43.10: reading stops when the parser holds as much as it may read ahead; the input
    /// left in the socket is read when reading resumes, at once when answers may still be taken,
    /// after the client has read its answers when not.
    @Test func inputLeftUnreadIsReadWhenReadingResumes() {
        var m = machine()
        m.inputLeftUnread()
        check(m.settle(pendingOutput: 0, parser: empty, now: 1), .resume(readNow: true))
        check(m.deferredReadArrived(), true)
        var backedUp = machine()
        backedUp.inputLeftUnread()
        check(backedUp.settle(pendingOutput: Machine.maxPendingOutput, parser: empty, now: 1), .pause)
        #expect(backedUp.readPaused && backedUp.readableWhilePaused)
        #expect(backedUp.outputSent(now: 2) == .none)
        check(backedUp.settle(pendingOutput: 0, parser: empty, now: 2), .resume(readNow: true))
    }

    /// Past the server's total for slow readers, a connection whose client left output unsent takes
    /// no request and reads nothing; one that owes nothing goes on, a round of 64 KiB at a time.
    @Test func overTheServersBudgetOnlyConnectionsOwingOutputWait() {
        var m = machine()
        #expect(m.roundOverBudget(pendingOutput: 10, unsent: 10, overBudget: true))
        #expect(!m.roundOverBudget(pendingOutput: 10, unsent: 10, overBudget: false))
        #expect(!m.roundOverBudget(pendingOutput: 10, unsent: 0, overBudget: true))
        #expect(m.roundOverBudget(pendingOutput: Machine.budgetRoundBytes, unsent: 0, overBudget: true))
        // A client that reads is not asked about the server's total at all (outside #expect,
        // which evaluates every argument itself).
        var asked = false
        let stops = m.roundOverBudget(
            pendingOutput: 10, unsent: 0,
            overBudget: {
                asked = true
                return true
            }())
        #expect(!stops && !asked)
        // The gate a round asks before each request says the same, as one action.
        #expect(m.nextRequest(pendingOutput: 10, unsent: 10, overBudget: true) == .stop(anotherRound: true))
        #expect(m.nextRequest(pendingOutput: 10, unsent: 0, overBudget: true) == .take)
        var busy = machine()
        _ = busy.requestParsed(isHead: false, keepAlive: true, now: 0)
        #expect(busy.nextRequest(pendingOutput: 0, unsent: 0, overBudget: false) == .stop(anotherRound: false))
        #expect(m.readAction(pendingOutput: 10, overBudget: true) == .none)
        #expect(m.readPaused)
        check(m.settle(pendingOutput: 0, parser: empty, now: 1, overBudget: true), .resume(readNow: true))
    }

    @Test func anAnswerForAnotherRequestIsIgnored() {
        var m = machine()
        _ = m.requestParsed(isHead: false, keepAlive: true, now: 0)
        #expect(m.responseArrived(sequence: 7, kind: .complete) == .ignore)
        #expect(m.inFlight?.sequence == 1)
        #expect(m.responseArrived(sequence: 1, kind: .drop) == .close)
        check(m.closed(), true)
        check(m.closed(), false)
        #expect(m.responseArrived(sequence: 1, kind: .complete) == .ignore)
    }

    @Test func closeAfterTheAnswerShutsWritingThenDrains() {
        var m = machine()
        _ = m.requestParsed(isHead: false, keepAlive: false, now: 0)
        check(m.responseArrived(sequence: 1, kind: .complete), .write(includeBody: true, keepAlive: false))
        #expect(m.lifecycle == .closingAfterFlush)
        #expect(!m.mayTakeRequest(pendingOutput: 0))
        #expect(m.outputSent(now: 5) == .shutDownWriting)
        #expect(m.lifecycle == .draining)
        #expect(m.readAction(pendingOutput: 0) == .discard)
        // A client that never closes its side gets two seconds.
        #expect(m.tick(now: 6.9, handshakeDone: true) == nil)
        #expect(m.tick(now: 7, handshakeDone: true) == .close)
    }

    @Test func aMalformedRequestGetsItsAnswerThenTheConnectionCloses() {
        var m = machine()
        m.finalResponseQueued()
        #expect(!m.mayTakeRequest(pendingOutput: 100))
        #expect(m.settle(pendingOutput: 100, parser: empty, now: 0) == .pause)
        #expect(m.outputSent(now: 1) == .shutDownWriting)
    }

    @Test func aClientThatDoesNotReadItsAnswersStopsTheNextRequests() {
        var m = machine()
        let full = Machine.maxPendingOutput
        #expect(!m.mayTakeRequest(pendingOutput: full))
        #expect(m.nextRequest(pendingOutput: full, unsent: full, overBudget: false) == .stop(anotherRound: true))
        #expect(m.readAction(pendingOutput: full) == .none)
        #expect(m.readPaused && m.readableWhilePaused)
        m.outputBlocked(now: 10)
        #expect(m.socketWritable() == .flush)
        #expect(m.tick(now: 39.9, handshakeDone: true) == nil)
        #expect(m.tick(now: 40, handshakeDone: true) == .close)
        #expect(m.writableFlushed(pendingOutput: 0) == .takeRequests)
        #expect(m.writableFlushed(pendingOutput: 1) == .none)
    }

    @Test func aStreamReadsOnlyToNoticeTheClientLeavingAndClosesAfterItsEnd() {
        var m = machine()
        _ = m.requestParsed(isHead: false, keepAlive: true, now: 0)
        #expect(m.responseArrived(sequence: 1, kind: .stream) == .startStream)
        #expect(m.streamChunkArrived() == .flush)
        #expect(m.settle(pendingOutput: 0, parser: empty, now: 0) == .unchanged)
        #expect(m.readAction(pendingOutput: 0) == .discard)
        // Streams have no deadline of their own.
        #expect(m.tick(now: 3600, handshakeDone: true) == nil)
        check(m.streamEnded(), .flush)
        #expect(m.outputSent(now: 3601) == .shutDownWriting)
        #expect(m.streamChunkArrived() == .ignore)
    }

    @Test func deadlinesFollowWhatTheConnectionIsDoing() {
        var idle = machine(at: 100)
        #expect(idle.settle(pendingOutput: 0, parser: empty, now: 100) == .unchanged)
        #expect(idle.tick(now: 129.9, handshakeDone: true) == nil)
        #expect(idle.tick(now: 130, handshakeDone: true) == .close)

        var head = machine()
        _ = head.settle(pendingOutput: 0, parser: .init(isReadingBody: false, bufferedBytes: 12), now: 1)
        // More bytes of the same head do not move the deadline.
        _ = head.settle(pendingOutput: 0, parser: .init(isReadingBody: false, bufferedBytes: 20), now: 9)
        #expect(head.tick(now: 11, handshakeDone: true) == .requestTimeout)
        #expect(head.lifecycle == .closingAfterFlush)

        var body = machine()
        _ = body.settle(pendingOutput: 0, parser: .init(isReadingBody: true, bufferedBytes: 0), now: 1)
        #expect(body.tick(now: 30.9, handshakeDone: true) == nil)
        #expect(body.tick(now: 31, handshakeDone: true) == .requestTimeout)

        var busy = machine()
        _ = busy.requestParsed(isHead: false, keepAlive: true, now: 0)
        #expect(busy.tick(now: 1000, handshakeDone: true) == nil)
    }

    @Test func aTLSHandshakeCountsAgainstTheHeaderDeadlineAndCannotBeAnswered() {
        var m = machine(at: 0, tls: true)
        #expect(m.awaitingFirstRequest)
        #expect(m.tick(now: 10, handshakeDone: false) == .close)
        var done = machine(at: 0, tls: true)
        #expect(done.tick(now: 10, handshakeDone: true) == .requestTimeout)
        var served = machine(at: 0, tls: true)
        _ = served.requestParsed(isHead: false, keepAlive: true, now: 1)
        #expect(!served.awaitingFirstRequest)
    }

    @Test func theEndOfInputClosesOnceNothingIsOwed() {
        var m = machine()
        m.peerHungUp()
        #expect(m.readAction(pendingOutput: 0) == .read(shortReadDrains: false), "after a hang-up, read to the end")
        _ = m.requestParsed(isHead: false, keepAlive: true, now: 0)
        m.inputEnded()
        #expect(m.inputHandled(pendingOutput: 0) == .none)
        check(m.responseArrived(sequence: 1, kind: .complete), .write(includeBody: true, keepAlive: true))
        #expect(m.inputHandled(pendingOutput: 10) == .none)
        #expect(m.inputHandled(pendingOutput: 0) == .close)
        #expect(!m.wantsToRead)
    }

    @Test func aShutdownClosesIdleConnectionsAndEndsBusyOnesAfterTheirAnswer() {
        var idle = machine()
        check(idle.shutdownRequested(pendingOutput: 0, parser: empty), .close)
        var partial = machine()
        check(
            partial.shutdownRequested(pendingOutput: 0, parser: .init(isReadingBody: false, bufferedBytes: 3)),
            .afterAnswer)
        var busy = machine()
        _ = busy.requestParsed(isHead: false, keepAlive: true, now: 0)
        check(busy.shutdownRequested(pendingOutput: 0, parser: empty), .afterAnswer)
        check(busy.responseArrived(sequence: 1, kind: .complete), .write(includeBody: true, keepAlive: false))
        // A request parsed after the shutdown began is not kept alive either.
        var late = machine()
        _ = late.shutdownRequested(pendingOutput: 0, parser: .init(isReadingBody: false, bufferedBytes: 3))
        #expect(late.requestParsed(isHead: false, keepAlive: true, now: 0).keepAlive == false)
        var streaming = machine()
        _ = streaming.requestParsed(isHead: false, keepAlive: true, now: 0)
        _ = streaming.responseArrived(sequence: 1, kind: .stream)
        check(streaming.shutdownRequested(pendingOutput: 0, parser: empty), .close)
    }

    /// An HTTP/1.0 request kept alive: the action says to announce it; closed, or HTTP/1.1, nothing to say.
    @Test func anHTTP10ConnectionKeptAliveIsAnnounced() {
        var m = machine()
        _ = m.requestParsed(isHead: false, keepAlive: true, announcesKeepAlive: true, now: 0)
        check(
            m.responseArrived(sequence: 1, kind: .complete),
            .write(includeBody: true, keepAlive: true, announceKeepAlive: true))
        _ = m.requestParsed(isHead: false, keepAlive: false, announcesKeepAlive: true, now: 1)
        check(m.responseArrived(sequence: 2, kind: .complete), .write(includeBody: true, keepAlive: false))
    }
}
