import SKANDomain

/// The conversion model answers, and injected faults apply: a fault is decided first, so that a
/// request whose answer it replaces leaves the device's state as it was (the client's retry gets
/// the answer this one would have had).
struct ModelAnswerSource: AnswerSource {
    let tenant: Tenant

    func answer(
        _ exchange: SingularExchange, endpoint: SKANEndpoint, _ answered: @escaping @Sendable (SingularAnswer) -> Void
    ) {
        answered(answer(exchange, endpoint: endpoint))
    }

    /// The model's answer, with a fault applied if one is due. `parsed`, `findings` and `members`
    /// are a replay's miss: the request it read already, and what goes into the entry before the
    /// fault's.
    func answer(
        _ exchange: SingularExchange, endpoint: SKANEndpoint, parsed: ParsedSKANRequest? = nil,
        findings: [ValidationFinding] = [], members: [JSONMember] = []
    ) -> SingularAnswer {
        let fault = tenant.faults.decide(for: endpoint)
        let commit = fault.answer == nil
        var outcome =
            if let parsed {
                tenant.service.answer(parsed, commit: commit)
            } else {
                tenant.service.handle(endpoint, exchange.request, commit: commit)
            }
        outcome.findings += findings
        var status = outcome.status
        var body = outcome.body
        var members = members
        if !fault.isEmpty {
            switch fault.answer {
            case .status(let code)?:
                status = code
                body = SKANResponse.error("fault injected by skan-mock: HTTP \(code)")
            case .malformedBody?:
                body = Self.malformedBody
            case .emptyBody?:
                body = []
            case .dropConnection?:
                status = 0
                body = []
            case .delay?, nil:
                break
            }
            members.append(JSONMember(JournalRecord.Field.fault, fault.json))
        }
        return SingularAnswer(
            outcome: outcome, status: status, body: body, members: members, durationMicros: exchange.elapsedMicros,
            delayMilliseconds: fault.delayMilliseconds,
            faultName: fault.answer?.name ?? (fault.delayMilliseconds != nil ? "delay" : nil),
            drops: fault.answer == .dropConnection)
    }

    /// Valid JSON up to the point where it stops: what a truncated or garbled answer looks like.
    static let malformedBody = Array("{\"status\":\"ok\",\"conversion_value\":".utf8)
}
