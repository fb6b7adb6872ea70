import SKANDomain
import SystemPOSIX

/// A shadowed request's journal entry is whole when two things have happened, in either order:
/// its answer was delivered (or found not sent at a stop), and the upstream replied (or failed).
/// Then it is recorded in its turn of `ArrivalOrder`, so entries keep the order their requests
/// arrived in, whatever order the upstream answers in.
final class ShadowComparison: Sendable {
    /// What the upstream's reply adds to the entry.
    struct Addition: Sendable {
        var findings: [ValidationFinding]
        var members: [JSONMember]
    }

    private struct State {
        var addition: Addition?
        var delivered: (AnswerDelivery.Result, @Sendable (AnswerDelivery.Result, Addition) -> Void)?
    }

    private let state = Mutex(State())
    private let arrivals: ArrivalOrder
    private let ticket: Int

    /// Takes the request's place in arrival order: call it when the request arrives.
    init(arrivals: ArrivalOrder) {
        self.arrivals = arrivals
        ticket = arrivals.ticket()
    }

    /// The upstream replied; what it adds to the entry.
    func upstreamReplied(_ addition: Addition) {
        let delivered = state.withLock { state in
            state.addition = addition
            return state.delivered
        }
        if let (result, record) = delivered { finish(result, addition, record) }
    }

    /// The answer was delivered (or not); `record` writes the entry once the reply is in too.
    func delivered(
        _ result: AnswerDelivery.Result, record: @escaping @Sendable (AnswerDelivery.Result, Addition) -> Void
    ) {
        let addition = state.withLock { state in
            state.delivered = (result, record)
            return state.addition
        }
        if let addition { finish(result, addition, record) }
    }

    private func finish(
        _ result: AnswerDelivery.Result, _ addition: Addition,
        _ record: @escaping @Sendable (AnswerDelivery.Result, Addition) -> Void
    ) {
        arrivals.complete(ticket) { record(result, addition) }
    }
}
