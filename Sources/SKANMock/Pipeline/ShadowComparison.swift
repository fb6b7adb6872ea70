import SKANDomain
import SystemPOSIX

/// A shadowed request's journal entry needs two things that come in either order: what became of
/// its answer (delivered, or not sent at a stop) and the upstream's reply (or failure). The reply
/// takes its turn in `ArrivalOrder`, so entries are recorded in the order their requests arrived,
/// whatever order the upstream answers in. An answer held back by an injected delay is recorded
/// when it is sent, as in every mode (`AnswerDelivery`): it never holds back the entries after it.
final class ShadowComparison: ArrivalOrder.Entry {
    /// What the upstream's reply adds to the entry.
    struct Addition: Sendable {
        var findings: [ValidationFinding]
        var members: [JSONMember]
    }

    typealias Record = @Sendable (AnswerDelivery.Result, Addition) -> Void

    private struct State {
        var addition: Addition?
        /// The reply's turn in arrival order has come.
        var turnCame = false
        var delivered: (AnswerDelivery.Result, Record)?
        var recorded = false

        /// The entry's parts, once all are in and the turn has come; nil before, and after. They
        /// are handed over, not kept: `record` holds the answer, which holds this comparison, so
        /// a kept copy was a cycle that leaked every shadowed request (about 5 KB each).
        mutating func takeWhole() -> (AnswerDelivery.Result, Record, Addition)? {
            guard !recorded, turnCame, let addition, let (result, record) = delivered else { return nil }
            recorded = true
            self.addition = nil
            delivered = nil
            return (result, record, addition)
        }
    }

    private let state = Mutex(State())
    private let arrivals: ArrivalOrder
    private let ticket: Int
    let heldBytes: Int

    private init(arrivals: ArrivalOrder, ticket: Int, heldBytes: Int) {
        self.arrivals = arrivals
        self.ticket = ticket
        self.heldBytes = heldBytes
    }

    /// Takes the request's place in arrival order: call it when the request arrives. `heldBytes`
    /// is what the entry holds until it is recorded (its request and answer), counted against the
    /// bound on what waits for the upstream.
    static func arriving(in arrivals: ArrivalOrder, heldBytes: Int) -> ShadowComparison {
        arrivals.enter { ShadowComparison(arrivals: arrivals, ticket: $0, heldBytes: heldBytes) }
    }

    /// The upstream replied; what it adds to the entry. The entry is recorded in its turn if its
    /// answer was delivered by then. A reply to an entry given up already is dropped.
    func upstreamReplied(_ addition: Addition) {
        arrivals.complete(ticket, turn(with: addition))
    }

    /// The completion that records the entry with `addition` once its answer is delivered.
    private func turn(with addition: Addition) -> @Sendable () -> Void {
        { [state] in
            if let (result, record, addition) = state.withLock({ state in
                state.addition = addition
                state.turnCame = true
                return state.takeWhole()
            }) {
                record(result, addition)
            }
        }
    }

    /// The answer was delivered (or not); `record` writes the entry once the reply is in too.
    func delivered(_ result: AnswerDelivery.Result, record: @escaping Record) {
        if let (result, record, addition) = state.withLock({ state in
            state.delivered = (result, record)
            return state.takeWhole()
        }) {
            record(result, addition)
        }
    }

    /// Given up while waiting (too many requests, or too many bytes, waited for the upstream):
    /// recorded in its turn as not sent, whatever the upstream says later.
    func givenUp(waiting: Int, bytes: Int) -> @Sendable () -> Void {
        let reply = UpstreamReply.givenUp(waiting: waiting, bytes: bytes)
        return turn(with: Addition(findings: reply.failureFindings, members: [reply.member]))
    }
}
