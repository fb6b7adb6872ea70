import SystemPOSIX

@testable import SKANMock

/// The upstream in memory: every exchange sent waits until the test answers it, times it out or
/// fails it, in any order, on the test's own thread; a stop ends those still open as not sent,
/// and anything sent after it at once. No socket, no thread, no clock.
final class UpstreamTwin: UpstreamTransport {
    private struct State {
        var sent: [UpstreamForward] = []
        var open: [Int: @Sendable (UpstreamReply) -> Void] = [:]
        var stopped = false
    }

    private let state = Mutex(State())

    func send(_ exchange: UpstreamForward, completion: @escaping @Sendable (UpstreamReply) -> Void) {
        let stopped = state.withLock { state in
            guard !state.stopped else { return true }
            state.open[state.sent.count] = completion
            state.sent.append(exchange)
            return false
        }
        if stopped { completion(.notSentStopping) }
    }

    func stop(waitingAtMost seconds: Double) {
        let open = state.withLock { state in
            state.stopped = true
            defer { state.open = [:] }
            return state.open.sorted { $0.key < $1.key }.map(\.value)
        }
        for completion in open { completion(.notSentStopping) }
    }

    /// Every exchange sent so far, in the order sent.
    var sent: [UpstreamForward] { state.withLock { $0.sent } }

    /// Whether the server stopped it.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Exchanges sent and not yet answered.
    var openCount: Int { state.withLock { $0.open.count } }

    /// Ends exchange number `index` (0 for the first sent) with `reply`.
    func reply(_ index: Int, _ reply: UpstreamReply) {
        let completion = state.withLock { $0.open.removeValue(forKey: index) }
        precondition(completion != nil, "exchange \(index) is not open")
        completion?(reply)
    }

    /// Answers exchange `index` as a real upstream would, `body` as text.
    func answer(_ index: Int, status: Int = 200, _ body: String) {
        reply(index, .answer(status: status, body: Array(body.utf8), durationMicros: 1_000))
    }

    /// Exchange `index` gets no answer within its timeout.
    func timeOut(_ index: Int) {
        let timeout = state.withLock { $0.sent[index].timeoutSeconds }
        reply(index, .timedOut(afterSeconds: timeout, durationMicros: Int64(timeout * 1_000_000)))
    }
}
