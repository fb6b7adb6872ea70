import SystemPOSIX

/// Answers an injected `delay` fault holds back, until their timer fires or the server stops. A
/// delayed answer is journaled when it is sent, not when it was decided, so that a server stopped
/// during the delay does not leave a journal saying 200 for an answer the client never got: at
/// stop, each one still waiting is finished as not answered. Every mode's delayed answers wait
/// here (`AnswerDelivery`), so the guarantee holds for all of them.
final class PendingDelays: Sendable {
    private struct State {
        var next = 0
        var stopped = false
        var waiting: [Int: @Sendable (_ answered: Bool) -> Void] = [:]
    }

    private let state = Mutex(State())
    /// The server's timer: dispatch in the server, the test's hand in tests.
    private let timer: ServerTimer

    init(timer: ServerTimer = .dispatch) {
        self.timer = timer
    }

    /// Runs `finish(true)` after `milliseconds`, or `finish(false)` when the server stops first
    /// (at once if it has stopped already).
    func schedule(after milliseconds: Int, _ finish: @escaping @Sendable (_ answered: Bool) -> Void) {
        let id: Int? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.next += 1
            state.waiting[state.next] = finish
            return state.next
        }
        guard let id else {
            finish(false)
            return
        }
        timer.after(milliseconds) { [self] in
            state.withLock { $0.waiting.removeValue(forKey: id) }?(true)
        }
    }

    /// Answers waiting for their delay now.
    var count: Int { state.withLock { $0.waiting.count } }

    /// The server stops: every answer still waiting is finished as not sent.
    func stop() {
        let waiting = state.withLock { state in
            state.stopped = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for finish in waiting { finish(false) }
    }
}
