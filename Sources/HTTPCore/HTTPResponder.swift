import SystemPOSIX

/// Whatever answers requests. Called on the connection's queue; it may answer at once (the fast
/// path: no hop, no allocation beyond the response) or later from any thread (a delayed fault),
/// and the connection keeps pipelined answers in order either way.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest, writer: HTTPResponseWriter)
}

/// How a handler ends an exchange: with a response, or by dropping the connection unanswered (so
/// tests can exercise a client's network-error path). The first call wins; later ones are ignored.
public struct HTTPResponseWriter: Sendable {
    enum Outcome: Sendable {
        case response(HTTPResponse)
        case stream(HTTPResponse, HTTPStream)
        case dropConnection
    }

    private let deliver: @Sendable (Outcome) -> Void

    init(deliver: @escaping @Sendable (Outcome) -> Void) { self.deliver = deliver }

    public func send(_ response: HTTPResponse) { deliver(.response(response)) }

    public func dropConnection() { deliver(.dropConnection) }

    /// Answers with `head` and a body written over time through the returned stream (Server-Sent
    /// Events). The connection serves no further request and closes when the stream ends.
    public func stream(_ head: HTTPResponse) -> HTTPStream {
        let stream = HTTPStream()
        deliver(.stream(head, stream))
        return stream
    }

    /// A writer that hands the outcome to `body`; for unit-testing responders without sockets.
    public static func capturing(_ body: @escaping @Sendable (HTTPResponse?) -> Void) -> HTTPResponseWriter {
        HTTPResponseWriter { outcome in
            switch outcome {
            case .response(let response), .stream(let response, _): body(response)
            case .dropConnection: body(nil)
            }
        }
    }
}

/// Where one exchange's outcome lands. While the responder is still running on the connection's
/// queue the outcome is parked here and picked up inline; once the responder has returned without
/// answering, the outcome is posted to the connection's queue instead, with its exchange's
/// sequence. A slot nobody else holds after its exchange (the responder kept no writer) is used
/// again for the connection's next request: four allocations a request fewer.
final class ResponseSlot: Sendable {
    private enum Phase {
        case responding
        case filled(HTTPResponseWriter.Outcome)
        case detached
        case done
    }

    private struct State {
        var phase = Phase.responding
        var sequence = 0
    }

    private let state = Mutex(State())
    private let post: @Sendable (Int, HTTPResponseWriter.Outcome) -> Void

    init(post: @escaping @Sendable (_ sequence: Int, HTTPResponseWriter.Outcome) -> Void) { self.post = post }

    /// Readies the slot for the exchange numbered `sequence`.
    func begin(sequence: Int) {
        state.withLock { $0 = State(phase: .responding, sequence: sequence) }
    }

    var writer: HTTPResponseWriter { HTTPResponseWriter { self.deliver($0) } }

    private func deliver(_ outcome: HTTPResponseWriter.Outcome) {
        let postSequence = state.withLock { state -> Int? in
            switch state.phase {
            case .responding:
                state.phase = .filled(outcome)
                return nil
            case .detached:
                state.phase = .done
                return state.sequence
            case .filled, .done:
                return nil
            }
        }
        if let postSequence { post(postSequence, outcome) }
    }

    /// Called once the responder returns: the outcome if it answered inline, else nil (and any
    /// later answer is posted).
    func takeInlineOutcome() -> HTTPResponseWriter.Outcome? {
        state.withLock { state in
            if case .filled(let outcome) = state.phase {
                state.phase = .done
                return outcome
            }
            state.phase = .detached
            return nil
        }
    }
}
