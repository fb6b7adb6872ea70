import HTTPCore

/// Stage 3: the answer goes out now, after an injected delay, or as a dropped connection, the
/// same way in every mode. The entry is recorded just before the answer leaves (in shadow mode,
/// once the upstream's reply is in too: `ShadowComparison`), so a test that reads the journal
/// right after its answer finds it; a delayed answer waits on a timer, never on a thread
/// (`PendingDelays`), and one the server stops during is recorded as not sent.
struct AnswerDelivery: Sendable {
    let delays: PendingDelays

    /// What became of an answer.
    enum Result: Sendable, Equatable {
        /// Sent, or the connection dropped as a fault asked.
        case delivered
        /// The server stopped first; why, for the entry's `not_sent`.
        case notSent(String)
    }

    /// Delivers `answer` on `writer`, calling `record` first with what became of it.
    func deliver(
        _ answer: SingularAnswer, to writer: HTTPResponseWriter,
        record: @escaping @Sendable (Result) -> Void
    ) {
        guard let delay = answer.delayMilliseconds else {
            record(.delivered)
            Self.send(answer, writer)
            return
        }
        delays.schedule(after: delay) { answered in
            guard answered else {
                record(.notSent("the server stopped during the \(delay) ms delay; the client got no answer"))
                return
            }
            record(.delivered)
            Self.send(answer, writer)
        }
    }

    private static func send(_ answer: SingularAnswer, _ writer: HTTPResponseWriter) {
        if answer.drops { writer.dropConnection() } else { writer.send(answer.response) }
    }
}
