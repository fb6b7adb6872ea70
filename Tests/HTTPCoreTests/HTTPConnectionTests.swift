import SystemPOSIX
import Testing

@testable import HTTPCore

/// A connection's whole life in process, on an in-memory socket and a hand-moved clock
/// (`ConnectionHarness`): what the state machine decides, carried out by the real executor.
/// The socket suites in IntegrationTests stay the end-to-end proof; these need no port, no
/// thread of their own and no sleep.
@Suite("HTTPConnection in memory")
struct HTTPConnectionTests {
    private func get(_ target: String, _ extra: String = "") -> String {
        "GET \(target) HTTP/1.1\r\nHost: test\r\n\(extra)\r\n"
    }

    @Test func pipelinedRequestsAreAnsweredInOrderOneAtATime() {
        let answers = HeldAnswers()
        let harness = ConnectionHarness(responder: answers)
        harness.clientSends(get("/a") + get("/b") + get("/c"))
        #expect(answers.targets == ["/a"], "one request is with the responder at a time")
        #expect(harness.take() == "")

        answers.answer("/a")
        harness.settle()
        #expect(answers.targets == ["/a", "/b"])
        answers.answer("/b")
        harness.settle()
        answers.answer("/c")
        harness.settle()
        let wire = harness.take()
        let order = ["/a", "/b", "/c"].map { wire.range(of: "\r\n\r\n\($0)")?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        #expect(!harness.isClosed)
    }

    @Test func aClientThatDoesNotReadStopsTheConnectionTakingRequests() {
        var limits = HTTPLimits()
        limits.maxPendingOutputBytes = 1000
        let big = BigAnswers(size: 600)
        let harness = ConnectionHarness(limits: limits, responder: big)
        harness.io.queue.sync { harness.io.room = 0 }
        harness.clientSends((1...5).map { get("/\($0)") }.joined())
        #expect(big.count == 2, "past 1000 bytes unsent, no further request is taken")

        harness.clientReads()
        #expect(big.count == 5, "once the client reads, the rest are served")
        #expect(harness.take().components(separatedBy: "HTTP/1.1 200").count - 1 == 5)
    }

    @Test func anIdleConnectionClosesAtItsDeadlineAndNotBefore() {
        let harness = ConnectionHarness(responder: EchoTarget())
        harness.clientSends(get("/one"))
        #expect(harness.take().hasSuffix("/one"))
        harness.sweep(after: 29)
        #expect(!harness.isClosed)
        harness.sweep(after: 2)
        #expect(harness.isClosed)
        #expect(harness.take() == "", "an idle close says nothing")
    }

    @Test func aHeadThatStopsHalfWayGets408ThenTheConnectionDrains() {
        let refusals = Refusals()
        let harness = ConnectionHarness(refusals: { refusals.add($0) }, responder: EchoTarget())
        harness.clientSends("GET /slow HTTP/1.1\r\nHost: te")
        harness.sweep(after: 11)
        let wire = harness.take()
        #expect(wire.hasPrefix("HTTP/1.1 408"))
        #expect(wire.contains("Connection: close"))
        #expect(harness.writeShut, "our side is shut once the 408 is sent")
        #expect(!harness.isClosed, "and the connection drains, so the 408 is not lost to a reset")
        #expect(refusals.statuses == [408])

        harness.clientSends("", finish: true)
        #expect(harness.isClosed, "the client's FIN ends the drain")
    }

    @Test func connectionCloseIsAnsweredThenShutThenClosedOnTheClientsFIN() {
        let harness = ConnectionHarness(responder: EchoTarget())
        harness.clientSends(get("/last", "Connection: close\r\n") + get("/never"))
        let wire = harness.take()
        #expect(wire.contains("Connection: close"))
        #expect(wire.hasSuffix("/last"))
        #expect(!wire.contains("/never"), "nothing after a Connection: close request is served")
        #expect(harness.writeShut)
        harness.clientSends("", finish: true)
        #expect(harness.isClosed)
    }

    @Test func aDrainThatTheClientNeverEndsIsClosedAfterTwoSeconds() {
        let harness = ConnectionHarness(responder: EchoTarget())
        harness.clientSends(get("/x", "Connection: close\r\n"))
        #expect(harness.writeShut)
        harness.sweep(after: 1)
        #expect(!harness.isClosed)
        harness.sweep(after: 1.5)
        #expect(harness.isClosed)
    }

    @Test func http10GetsKeepAliveOnlyWhenItAsksAndIsToldSo() {
        let harness = ConnectionHarness(responder: EchoTarget())
        harness.clientSends("GET /k HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let kept = harness.take()
        #expect(kept.contains("Connection: keep-alive"))
        #expect(!harness.writeShut)
        harness.clientSends("GET /c HTTP/1.0\r\n\r\n")
        let closing = harness.take()
        #expect(closing.hasSuffix("/c"))
        #expect(harness.writeShut, "HTTP/1.0 without keep-alive closes after its answer")
    }

    @Test func aStreamIsWrittenAsItComesAndClosesTheConnectionAtItsEnd() {
        let streams = Streams()
        let harness = ConnectionHarness(responder: streams)
        harness.clientSends(get("/events") + get("/after"))
        let head = harness.take()
        #expect(head.hasPrefix("HTTP/1.1 200"))
        let stream = streams.last!
        stream.write(Array("data: one\n\n".utf8))
        harness.settle()
        #expect(harness.take() == "data: one\n\n")
        #expect(streams.count == 1, "no request is served while a stream is open")

        stream.close()
        harness.settle()
        #expect(harness.writeShut, "the stream's end closes the connection")
        harness.clientSends("", finish: true)
        #expect(harness.isClosed)
    }

    @Test func aClientThatLeavesMidBodyIsReportedAndNobodyIsAnswered() {
        let refusals = Refusals()
        let answers = HeldAnswers()
        let harness = ConnectionHarness(refusals: { refusals.add($0) }, responder: answers)
        harness.clientSends("POST /form HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc", finish: true)
        #expect(answers.targets.isEmpty)
        #expect(refusals.clientLeft == [true])
        #expect(harness.isClosed)
    }

    @Test func shutdownClosesAnIdleConnectionAndLetsABusyOneAnswerFirst() {
        let idle = ConnectionHarness(responder: EchoTarget())
        idle.shutdown()
        #expect(idle.isClosed)

        let answers = HeldAnswers()
        let busy = ConnectionHarness(responder: answers)
        busy.clientSends(get("/busy"))
        busy.shutdown()
        #expect(!busy.isClosed, "a request being answered is answered")
        answers.answer("/busy")
        busy.settle()
        let wire = busy.take()
        #expect(wire.contains("Connection: close"))
        #expect(wire.hasSuffix("/busy"))
        #expect(busy.writeShut)
    }

    /// A handshake counts against the header deadline from accept, so a client that trickles a
    /// byte now and then (a TLS slowloris) is closed as one that sends nothing; each byte is
    /// progress the session takes, but resets no timer.
    @Test func aTrickledHandshakeIsClosedAtTheHeaderDeadlineCountedFromAccept() {
        var limits = HTTPLimits()
        limits.headerTimeoutSeconds = 1
        let harness = ConnectionHarness(limits: limits, security: EndlessHandshake(), responder: EchoTarget())
        for _ in 0..<2 {
            harness.clientSends("\u{16}")
            harness.sweep(after: 0.45)
            #expect(!harness.isClosed)
        }
        harness.clientSends("\u{16}")
        harness.sweep(after: 0.2)
        #expect(harness.isClosed, "1.1 s after accept, whatever came meanwhile")
        #expect(harness.take() == "", "nothing can be said before the handshake is done")
    }

    @Test func aClientThatStopsReadingIsDroppedAtTheWriteDeadline() {
        let harness = ConnectionHarness(responder: BigAnswers(size: 10))
        harness.io.queue.sync { harness.io.room = 5 }
        harness.clientSends(get("/stuck"))
        harness.sweep(after: 29)
        #expect(!harness.isClosed)
        harness.sweep(after: 2)
        #expect(harness.isClosed)
    }

    @Test func aFailedSendClosesTheConnection() {
        let answers = HeldAnswers()
        let harness = ConnectionHarness(responder: answers)
        harness.clientSends(get("/reset"))
        harness.io.queue.sync { harness.io.failing = true }
        answers.answer("/reset")
        harness.settle()
        #expect(harness.isClosed)
    }
}

/// A handshake that takes every byte and never finishes: the client of a TLS slowloris.
struct EndlessHandshake: HTTPWireSecurity {
    final class Session: HTTPWireSession {
        func receive(_ wire: UnsafeRawBufferPointer, into plaintext: inout [UInt8]) -> HTTPWireStatus { .ok }
        func send(_ plaintext: UnsafeRawBufferPointer, into wire: inout [UInt8]) -> Bool { false }
        func takeOutput(into wire: inout [UInt8]) {}
        var protocolVersion: String? { nil }
    }

    func makeSession() -> (any HTTPWireSession)? { Session() }
    var plaintextRefusal: String { "this port speaks nothing yet" }
}

/// Answers every request with `size` bytes, counting them.
final class BigAnswers: HTTPResponder, @unchecked Sendable {
    private let served = Mutex(0)
    let size: Int
    init(size: Int) { self.size = size }
    var count: Int { served.withLock { $0 } }

    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        served.withLock { $0 += 1 }
        writer.send(HTTPResponse(body: [UInt8](repeating: UInt8(ascii: "x"), count: size)))
    }
}

/// Answers every request with an event stream, keeping the streams.
final class Streams: HTTPResponder, @unchecked Sendable {
    private let streams = Mutex<[HTTPStream]>([])
    var last: HTTPStream? { streams.withLock { $0.last } }
    var count: Int { streams.withLock { $0.count } }

    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        var head = HTTPResponse()
        head.headers.add("Content-Type", "text/event-stream")
        let stream = writer.stream(head)
        streams.withLock { $0.append(stream) }
    }
}

/// What the refusal observer was told.
final class Refusals: @unchecked Sendable {
    private let seen = Mutex<[HTTPRefusal]>([])
    func add(_ refusal: HTTPRefusal) { seen.withLock { $0.append(refusal) } }
    var statuses: [Int] { seen.withLock { $0.map(\.status.code) } }
    var clientLeft: [Bool] { seen.withLock { $0.map(\.clientLeft) } }
}
