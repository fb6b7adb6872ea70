import SKANDomain

/// What the upstream did with one request, in the journal's words: its answer, or why there is
/// none. Every transport (libcurl's, the tests' twin) words its failures through the constructors
/// here, so that a journal line reads the same whoever made it.
enum UpstreamReply: Sendable, Equatable {
    case answered(status: Int, body: [UInt8], durationMicros: Int64)
    case failed(Failure, reason: String, durationMicros: Int64)

    /// Why there is no answer to pass on: the journal's vocabulary, which the reports read too.
    typealias Failure = UpstreamFailure

    /// An answer, unless it breaks the rule record and replay share (it would hang the client or
    /// break the connection's framing): then it is not passed on.
    static func answer(status: Int, body: [UInt8], durationMicros: Int64) -> UpstreamReply {
        if let problem = RecordableAnswer.problem(status: status, bodyCount: body.count) {
            return .failed(
                .unusable, reason: "the upstream's answer cannot be passed on: \(problem)",
                durationMicros: durationMicros)
        }
        return .answered(status: status, body: body, durationMicros: durationMicros)
    }

    static func tooLarge(limit: Int, durationMicros: Int64) -> UpstreamReply {
        .failed(
            .unusable,
            reason:
                "the upstream's answer is over \(limit / 1024) KiB, the most skan-mock passes on (Singular's answers are under 200 bytes); none of it was passed on",
            durationMicros: durationMicros)
    }

    static func timedOut(afterSeconds timeout: Double, durationMicros: Int64) -> UpstreamReply {
        .failed(.timeout, reason: "the upstream did not answer within \(timeout) s", durationMicros: durationMicros)
    }

    static func unreachable(_ reason: String, durationMicros: Int64) -> UpstreamReply {
        .failed(.unreachable, reason: "the upstream could not be reached: \(reason)", durationMicros: durationMicros)
    }

    /// Given up: `waiting` entries holding `bytes` waited for the upstream, over the bound on
    /// what shadow mode holds for it (`ArrivalOrder.Limits`); the oldest is journaled without its reply.
    static func givenUp(waiting: Int, bytes: Int) -> UpstreamReply {
        .failed(
            .notSent,
            reason:
                "given up: \(waiting) requests (\(bytes / 1024) KiB) were waiting for the upstream, more than shadow mode holds (it answers slower than requests arrive); its reply, if any, is ignored",
            durationMicros: 0)
    }

    /// Not sent: `waiting` requests were queued for the upstream already.
    static func notSent(queueFull waiting: Int) -> UpstreamReply {
        .failed(
            .notSent,
            reason:
                "not sent to the upstream: \(waiting) requests were already waiting for it (it answers slower than requests arrive)",
            durationMicros: 0)
    }

    /// Not sent: the server stopped before the request's turn came.
    static let notSentStopping = UpstreamReply.failed(
        .notSent, reason: "not sent to the upstream: the server was stopping", durationMicros: 0)

    /// Not sent: it waited its whole timeout for a free connection.
    static func notSent(waitedMicros micros: Int64) -> UpstreamReply {
        .failed(
            .notSent,
            reason:
                "not sent to the upstream: it waited \(micros / 1000) ms for a free connection, its whole --upstream-timeout (the upstream answers slower than requests arrive)",
            durationMicros: 0)
    }

    /// The journal entry's `upstream` member, written by the journal's codec (bytes kept exactly:
    /// text when they are UTF-8, else base64, which a replay serves).
    var member: JSONMember {
        switch self {
        case .answered(let status, let body, let micros):
            JournalRecord.upstreamMember(.answered(.init(status: status, body: body), durationMicros: micros))
        case .failed(let failure, let reason, let micros):
            JournalRecord.upstreamMember(
                .failed(error: failure.rawValue, reason: reason, durationMicros: micros))
        }
    }

    /// What comparing the model's answer with this reply found: a difference the app would
    /// notice, or the upstream's failure. An answer also goes to the coverage, under the model
    /// entries that answered `outcome`, as matched or not.
    func findings(comparedWith outcome: SKANOutcome, service: ConversionService) -> [ValidationFinding] {
        switch self {
        case .answered(let status, let body, _):
            let difference = UpstreamComparison.finding(
                model: (outcome.status, outcome.body), upstream: (status, body))
            service.recordUpstream(outcome, matched: difference == nil)
            return difference.map { [$0] } ?? []
        case .failed:
            return failureFindings
        }
    }

    /// The finding of a failure, which needs no model answer to compare with; none for an answer.
    var failureFindings: [ValidationFinding] {
        guard case .failed(let failure, let reason, _) = self else { return [] }
        return [UpstreamComparison.failure(failure.findingCode, reason: reason)]
    }
}
